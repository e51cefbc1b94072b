import APMInspectCore

/// The loader of real files: the Mach-O reader lists slices, the DWARF reader opens them.
///
/// `resolverFactory` is the one place where an opened slice becomes a resolver, so a later reader (the symbol
/// table fallback for a binary without DWARF) plugs in without touching the store.
package struct MachODebugImageLoader: DebugImageLoader {
    package var resolverFactory: @Sendable (MachOSlice) throws(SymbolicationError) -> any AddressResolver

    package init(
        resolverFactory: @escaping @Sendable (MachOSlice) throws(SymbolicationError) -> any AddressResolver =
            MachODebugImageLoader.dwarfResolver
    ) {
        self.resolverFactory = resolverFactory
    }

    package func slices(in bytes: [UInt8]) throws(SymbolicationError) -> [DebugSlice] {
        try Self.debugSlices(of: try MachOFile(bytes: bytes))
    }

    /// The slices from the headers alone (a folder of dSYMs is indexed without reading their DWARF); nil when the
    /// headers cannot be read that way, or name no slice the store can use (the whole file is then read and judged).
    package func slices(atPath path: RawPath) -> [DebugSlice]? {
        guard let file = MachOFile.headers(at: path) else { return nil }
        return try? Self.debugSlices(of: file)
    }

    /// What the store keeps of each slice that has both an LC_UUID and a __TEXT segment.
    static func debugSlices(of file: MachOFile) throws(SymbolicationError) -> [DebugSlice] {
        var slices: [DebugSlice] = []
        for slice in file.slices {
            guard let uuid = slice.uuid, let vmaddr = slice.textVMAddress else { continue }
            slices.append(
                DebugSlice(
                    uuid: Self.plain(uuid),
                    arch: slice.architecture.name,
                    textVMAddress: vmaddr,
                    fileOffset: slice.fileOffset,
                    size: slice.size
                )
            )
        }
        guard !slices.isEmpty else {
            throw SymbolicationError(.malformedMachO, "no slice with both an LC_UUID and a __TEXT segment")
        }
        return slices
    }

    package func open(_ bytes: [UInt8], slice: DebugSlice) throws(SymbolicationError) -> any AddressResolver {
        let file = try MachOFile(bytes: bytes)
        guard let found = file.slices.first(where: { $0.uuid.map(Self.plain) == slice.uuid }) else {
            throw SymbolicationError(.unreadable, "the slice \(slice.arch) with UUID \(slice.uuid) is gone")
        }
        return try resolverFactory(found)
    }

    /// A slice without DWARF (a system library, a binary given for its symbols) opened from its headers and symbol
    /// tables alone; nil for a slice with DWARF, which is read whole as before.
    package func open(atPath path: RawPath, slice: DebugSlice) -> (any AddressResolver)? {
        guard let file = MachOFile.symbolTables(at: path),
            let found = file.slices.first(where: { $0.uuid.map(Self.plain) == slice.uuid }),
            !found.sections.contains(where: { $0.segmentName == "__DWARF" })
        else { return nil }
        return try? resolverFactory(found)
    }

    /// The slice's DWARF, indexed, with the symbol table behind it where the DWARF names nothing (and alone for a
    /// binary without DWARF: `symbol + offset`, as atos prints it).
    package static let dwarfResolver: @Sendable (MachOSlice) throws(SymbolicationError) -> any AddressResolver = {
        slice throws(SymbolicationError) in
        // DebugImage reads the symbol table too; a damaged one costs the fallback only: the DWARF still answers.
        let image = try DebugImage(slice: slice)
        guard image.dwarf != nil || image.symbols != nil else {
            if let issue = image.issues.first { throw issue }
            // A library without DWARF (a system library) stands on its symbol table: its own error says what is
            // wrong with it, and where.
            _ = try slice.symbolTable()
            throw SymbolicationError(.malformedDWARF, "the slice has neither DWARF nor a readable symbol table")
        }
        return image
    }

    /// `4C4C4486-5555-…` as the crash model spells UUIDs: lower-case, no dashes.
    static func plain(_ uuid: MachOUUID) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in uuid.bytes {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
