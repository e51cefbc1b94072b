/// A ``JSONValue`` kept as its JSON text until it is read: for verbatim data most readers never look at.
///
/// A report's `.ips` header, say, is kept whole (``IPSHeader/fields``) next to the typed fields read from it; made
/// into a value for every file it cost an allocation per member, a tenth of reading a small report. The text must be
/// one strict JSON value: reading it then gives exactly the value the document held. Encoding, decoding and
/// equality go through the value.
@propertyWrapper
public struct LazyJSONValue: Sendable, Equatable, Codable {
    enum Storage: Sendable {
        case value(JSONValue)
        case text([UInt8])
    }

    var storage: Storage

    /// A value already decoded.
    public init(wrappedValue: JSONValue) {
        storage = .value(wrappedValue)
    }

    /// The value of `element`, kept as its source text when its document was strict JSON (no repairs, not cut off),
    /// else made now, as the repairs left it.
    @usableFromInline
    package init(element: JSONElement) {
        let document = element.document
        if document.diagnostics.isEmpty, !document.isTruncated, !document.isFragmentList {
            storage = .text(Array(document.bytes[element.sourceRange]))
        } else {
            storage = .value(element.materialized)
        }
    }

    /// The value, decoded on first read.
    public var wrappedValue: JSONValue {
        get { kept.value }
        set { storage = .value(newValue) }
    }

    /// The value, or the root of a parse of its text, which writers write from without making the value.
    var kept: KeptJSONMembers.Member {
        switch storage {
        case .value(let value):
            return .value(value)
        case .text(let bytes):
            // The text parsed strictly once already; should it not now, it is kept as a string, not lost.
            guard let document = try? JSONDocument(bytes: bytes) else {
                return .value(.string(String(decoding: bytes, as: UTF8.self)))
            }
            return .element(document.root)
        }
    }

    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        storage = .value(try JSONValue(from: decoder))
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }

    /// Equal when they say the same thing: equality by content, never by storage.
    public static func == (lhs: LazyJSONValue, rhs: LazyJSONValue) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}
