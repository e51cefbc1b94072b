/// A defined symbol of a Mach-O symbol table: a name, the address it starts at, and its section.
package struct MachOSymbol: Sendable, Hashable {
    /// The name without the Mach-O leading underscore (`main`, `$s4Demo…`, `_ZN4demo…`): C names as written and
    /// mangled names as the demangler takes them.
    package var name: String
    /// File address (the slice's own virtual address space).
    package var address: UInt64
    /// The section the symbol is defined in.
    package var section: MachOSection
    /// True for an external (`N_EXT`) symbol, false for a local or private one.
    package var isExternal: Bool

    package init(name: String, address: UInt64, section: MachOSection, isExternal: Bool) {
        self.name = name
        self.address = address
        self.section = section
        self.isExternal = isExternal
    }

    /// The name as it appears in the symbol table: Mach-O prefixes every C-level name with `_`, so `main` is
    /// `_main` and the Swift symbol `$s4Demo…` is `_$s4Demo…`.
    static func displayName(_ raw: some Collection<UInt8>) -> String {
        guard raw.first == UInt8(ascii: "_") else { return String(decoding: raw, as: UTF8.self) }
        return String(decoding: raw.dropFirst(), as: UTF8.self)
    }
}
