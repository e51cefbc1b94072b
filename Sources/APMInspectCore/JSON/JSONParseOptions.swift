/// Limits and leniency for `JSONDocument` parsing.
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
    /// Nesting level from which containers are recorded by their byte range only (1 is the top-level value).
    ///
    /// For readers that need only the upper levels of large documents: an opaque container costs a bracket scan
    /// instead of a node per value, and `JSONElement/expanded()` parses it when it is wanted. Opaque containers are
    /// not validated until expanded. Applies to well-formed JSON only; repaired input is always parsed in full.
    public var opaqueDepth: Int?
    /// A quoted key of at most 8 bytes (`"reason"`) to look for directly inside each opaque object.
    ///
    /// The look happens while the object is skipped, and `JSONElement/mayContainProbedKey` reports the result.
    /// A string value equal to the key also counts.
    public var opaqueKeyProbe: String?
    /// Skip a container nested past ``maxDepth`` (recorded by its byte range, as an opaque one) instead of refusing
    /// the whole document, with a warning in `JSONDocument/depthCuts`.
    ///
    /// For formats that carry data of the application's own shape (KSCrash's `user` section, unknown members of an
    /// `.ips` body): nesting there says nothing about the report around it, which is still read. A skipped
    /// container is empty when read, and a reader that sets this reports the cuts.
    public var skipsTooDeep: Bool

    /// Options with the given bounds; the defaults bound memory and depth for hostile input.
    public init(
        maxDepth: Int = 128,
        maxInputBytes: Int = 1 << 30,
        lenient: Bool = true,
        opaqueDepth: Int? = nil,
        skipsTooDeep: Bool = false
    ) {
        self.maxDepth = maxDepth
        self.opaqueDepth = opaqueDepth
        self.skipsTooDeep = skipsTooDeep
        self.maxInputBytes = min(maxInputBytes, Int(UInt32.max) - 1)
        self.lenient = lenient
    }

    /// Strict RFC 8259 JSON with the default limits.
    public static let strict = JSONParseOptions(lenient: false)
}
