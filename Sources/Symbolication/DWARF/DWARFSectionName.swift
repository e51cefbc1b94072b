import APMInspectCore

/// The DWARF section a finding is in, named as a dSYM's `__DWARF` segment spells it so the key path of an error
/// matches what `otool` and `llvm-dwarfdump` show.
enum DWARFSectionName: String, Sendable {
    case info = "__debug_info"
    case abbrev = "__debug_abbrev"
    case line = "__debug_line"
    case str = "__debug_str"
    case lineStr = "__debug_line_str"
    case strOffsets = "__debug_str_offs"
    case addr = "__debug_addr"
    case ranges = "__debug_ranges"
    case rnglists = "__debug_rnglists"

    func error(
        _ message: String,
        at offset: Int,
        code: SymbolicationError.Code = .malformedDWARF
    ) -> SymbolicationError {
        SymbolicationError(
            code,
            "byte \(offset): \(message)",
            at: SourceLocation(byteOffset: offset, keyPath: "__DWARF.\(rawValue)")
        )
    }
}
