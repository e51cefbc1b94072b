/// Anything that turns an address of one binary image into source locations: the Mach-O symbol table (nearest
/// preceding symbol, as atos does without DWARF) and the DWARF index (functions, inline chains, lines).
///
/// Addresses are *file* addresses: the image's own virtual addresses, as its `__TEXT` segment's `vmaddr` lays them
/// out (0x100000000-based for a 64-bit executable), never runtime addresses. The caller subtracts the load address
/// and adds the `__TEXT` vmaddr, strips pointer-authentication bits and steps return addresses back by one before
/// asking, so every resolver answers the same question.
public protocol AddressResolver: Sendable {
    /// The locations for `fileAddress`, innermost inlined callee first and the concrete function last; empty when
    /// the resolver knows nothing about the address.
    func locations(at fileAddress: UInt64) -> [SymbolicatedLocation]
}
