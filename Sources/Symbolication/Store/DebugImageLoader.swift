import APMInspectCore

/// The seam where the Mach-O and DWARF readers meet the store: list a file's slices from its headers, and open
/// one slice into something that resolves addresses.
///
/// The store never interprets Mach-O itself; tests give it loaders of their own.
public protocol DebugImageLoader: Sendable {
    /// The slices of a thin or fat Mach-O in `bytes` (only headers and load commands are read).
    func slices(in bytes: [UInt8]) throws(SymbolicationError) -> [DebugSlice]
    /// The resolver for `slice` of the file in `bytes`: DWARF when the slice has it, else its symbol table.
    func open(_ bytes: [UInt8], slice: DebugSlice) throws(SymbolicationError) -> any AddressResolver
    /// The slices of the Mach-O at `path`, read from its headers without reading the whole file; nil when that
    /// cannot be done, and the store reads the file and asks ``slices(in:)``.
    func slices(atPath path: RawPath) -> [DebugSlice]?
    /// The resolver for `slice` of the Mach-O at `path`, read in parts (headers and symbol tables) when the slice
    /// has no DWARF; nil when that cannot be done, and the store reads the whole file and asks
    /// ``open(_:slice:)``.
    func open(atPath path: RawPath, slice: DebugSlice) -> (any AddressResolver)?
}

extension DebugImageLoader {
    /// Loaders that only read bytes: the store reads the whole file.
    package func slices(atPath path: RawPath) -> [DebugSlice]? { nil }
    /// Loaders that only read bytes: the store reads the whole file.
    package func open(atPath path: RawPath, slice: DebugSlice) -> (any AddressResolver)? { nil }
}
