/// One source location an address resolves to.
///
/// An address inside inlined code resolves to several locations: the inlined callee first, then each caller it was
/// inlined into, and last the concrete function the machine code belongs to — the order atos and Apple's reports
/// print them in. Names are kept as the binary spells them (Swift and C++ names mangled, C names without the
/// Mach-O leading underscore); presentation demangles them, so the model can always show both.
public struct SymbolicatedLocation: Sendable, Equatable, Hashable, Codable {
    /// The function's name as the binary or its debug information spells it (linkage name when there is one).
    public var symbol: String
    /// The distance from the start of the function's code to the address; for an inlined location, from the
    /// start of the inlined range that holds the address.
    public var symbolOffset: UInt64
    /// The source file, as the line table names it (directory joined when the table gives one).
    public var file: String?
    /// 1-based source line; nil when the line table has none for the address (line 0 in DWARF).
    public var line: Int?
    /// 1-based column; nil when unknown.
    public var column: Int?
    /// True for every location but the last of a chain: code inlined into its caller.
    public var isInlined: Bool

    /// A location, as an `AddressResolver` of your own returns it.
    package init(
        symbol: String,
        symbolOffset: UInt64,
        file: String? = nil,
        line: Int? = nil,
        column: Int? = nil,
        isInlined: Bool = false
    ) {
        self.symbol = symbol
        self.symbolOffset = symbolOffset
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
    }
}
