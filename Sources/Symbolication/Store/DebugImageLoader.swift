/// The seam where the Mach-O and DWARF readers meet the store: list a file's slices from its headers, and open
/// one slice into something that resolves addresses.
///
/// The store never interprets Mach-O itself; tests give it loaders of their own.
public protocol DebugImageLoader: Sendable {
    /// The slices of a thin or fat Mach-O in `bytes` (only headers and load commands are read).
    func slices(in bytes: [UInt8]) throws(SymbolicationError) -> [DebugSlice]
    /// The resolver for `slice` of the file in `bytes`: DWARF when the slice has it, else its symbol table.
    func open(_ bytes: [UInt8], slice: DebugSlice) throws(SymbolicationError) -> any AddressResolver
}
