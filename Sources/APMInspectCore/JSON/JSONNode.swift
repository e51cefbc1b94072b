/// One entry of a parsed document's tape: a value, or an object key.
///
/// Containers record where their subtree ends (``next``), so a reader can skip a value without visiting it;
/// scalars record the byte range of their text, decoded only when asked for. Plain data (`BitwiseCopyable`), so
/// the tape lives in a ``ByteAccess/ElementBuffer``, which the document takes over without a copy.
@usableFromInline
struct JSONNode: Sendable, BitwiseCopyable {
    @usableFromInline
    enum Kind: UInt8, Sendable, BitwiseCopyable {
        case object
        case array
        case string
        case number
        case bool
        case null
    }

    @usableFromInline static let hasEscapesFlag: UInt8 = 1
    @usableFromInline static let syntheticFlag: UInt8 = 2
    @usableFromInline static let trueFlag: UInt8 = 4
    @usableFromInline static let truncatedFlag: UInt8 = 8
    /// A container recorded by its byte range only; its children are not on the tape.
    @usableFromInline static let opaqueFlag: UInt8 = 16
    /// An opaque container in which the options' key probe was seen.
    @usableFromInline static let probeHitFlag: UInt8 = 32
    /// A number that is a plain integer below 10⁹, whose value the builder stored in ``count`` while scanning it.
    @usableFromInline static let smallIntegerFlag: UInt8 = 64

    /// The public name of a node kind.
    @usableFromInline
    static func publicKind(_ kind: Kind) -> JSONElement.Kind {
        switch kind {
        case .object: .object
        case .array: .array
        case .string: .string
        case .number: .number
        case .bool: .bool
        case .null: .null
        }
    }

    @usableFromInline var kind: Kind
    @usableFromInline var flags: UInt8
    /// First byte: the opening bracket, the first byte inside a string's quotes, or the first byte of a literal.
    @usableFromInline var start: UInt32
    /// One past the last byte: after the closing bracket, or before a string's closing quote.
    @usableFromInline var end: UInt32
    /// Index of the node that follows this value's whole subtree.
    @usableFromInline var next: UInt32
    /// Number of direct children: members for objects (key and value count as one), elements for arrays; the
    /// value of a number marked ``smallIntegerFlag``.
    @usableFromInline var count: UInt32
}
