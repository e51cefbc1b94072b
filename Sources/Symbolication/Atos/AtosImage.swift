/// The image atos reads from one Mach-O file: the slice `-arch` names, or the only one.
package enum AtosImage {
    /// Opens the Mach-O at `path` (a dSYM's DWARF file or a binary) and indexes the chosen slice.
    ///
    /// - Throws: the readers' errors, and `unreadable` when `architecture` names no slice or a fat file needs one.
    package static func open(path: String, architecture: String?) throws(SymbolicationError) -> DebugImage {
        let file = try MachOFile(path: path)
        let slice: MachOSlice
        if let architecture, let wanted = MachOArchitecture(name: architecture) {
            guard let found = file.slice(for: wanted) else {
                let present = file.slices.map(\.architecture.name).joined(separator: ", ")
                throw SymbolicationError(.unreadable, "no \(architecture) slice (the file has \(present))")
            }
            slice = found
        } else if file.slices.count == 1, let only = file.slices.first {
            slice = only
        } else {
            let present = file.slices.map(\.architecture.name).joined(separator: ", ")
            throw SymbolicationError(.unreadable, "a fat file: choose a slice with -arch (\(present))")
        }
        return try DebugImage(slice: slice)
    }
}
