extension MachOSlice {
    /// The DWARF sections of this slice.
    ///
    /// Sections the slice lacks are empty (all of them for a binary without debug information); a present section
    /// that points outside the slice throws.
    ///
    /// Mach-O section names keep 16 bytes, so dsymutil writes `__debug_str_offsets` as `__debug_str_offs`; the
    /// long spelling is looked for too, should a producer write it.
    package func dwarfSections() throws(SymbolicationError) -> DWARFSections {
        func read(_ names: String...) throws(SymbolicationError) -> [UInt8] {
            for name in names {
                if let found = section("__DWARF", name) { return try bytes(of: found) }
            }
            return []
        }
        return DWARFSections(
            info: try read("__debug_info"),
            abbrev: try read("__debug_abbrev"),
            line: try read("__debug_line"),
            str: try read("__debug_str"),
            lineStr: try read("__debug_line_str"),
            strOffsets: try read("__debug_str_offs", "__debug_str_offsets"),
            addr: try read("__debug_addr"),
            ranges: try read("__debug_ranges"),
            rnglists: try read("__debug_rnglists"),
            aranges: try read("__debug_aranges"),
            isLittleEndian: isLittleEndian,
            addressSize: addressSize
        )
    }
}
