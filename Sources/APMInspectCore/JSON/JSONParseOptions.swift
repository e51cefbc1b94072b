/// Limits and leniency for ``JSONDocument`` parsing.
///
/// The defaults are safe for hostile input: a deeply nested or enormous document is refused with an
/// ``InputError`` instead of exhausting the stack or memory.
public struct JSONParseOptions: Sendable, Equatable {
    /// Deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// Largest input accepted, in bytes.
    ///
    /// Offsets are stored in 32 bits, so this is capped below 4 GiB.
    public var maxInputBytes: Int
    /// Accept what people paste: comments, `...` elisions, trailing or missing commas, truncation, fragments.
    ///
    /// Every repair is reported as a ``Diagnostic`` on the document.
    public var lenient: Bool

    public init(maxDepth: Int = 128, maxInputBytes: Int = 1 << 30, lenient: Bool = true) {
        self.maxDepth = maxDepth
        self.maxInputBytes = min(maxInputBytes, Int(UInt32.max) - 1)
        self.lenient = lenient
    }

    /// Strict RFC 8259 JSON with the default limits.
    public static let strict = JSONParseOptions(lenient: false)
}
