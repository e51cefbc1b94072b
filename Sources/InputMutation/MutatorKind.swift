/// Every mutator the engine has; the raw value names it in findings and in `--emit` file names.
public enum MutatorKind: String, Sendable, CaseIterable, Codable {
    // Byte level, any family.
    case flipBit = "byte.flip-bit"
    case interestingByte = "byte.interesting-byte"
    case interestingWord = "byte.interesting-word"
    case insertBytes = "byte.insert"
    case deleteRange = "byte.delete"
    case duplicateRange = "byte.duplicate"
    case truncateAtBoundary = "byte.truncate-at-boundary"
    case splice = "byte.splice"
    // JSON.
    case jsonReplaceValue = "json.replace-value"
    case jsonNumberAtLimit = "json.number-at-limit"
    case jsonDeleteValue = "json.delete-value"
    case jsonDuplicateValue = "json.duplicate-value"
    case jsonRenameKey = "json.rename-key"
    case jsonDeepNesting = "json.deep-nesting"
    case jsonSwapValues = "json.swap-values"
    // Text and crash text.
    case textDeleteLine = "text.delete-line"
    case textDuplicateLine = "text.duplicate-line"
    case textSwapLines = "text.swap-lines"
    case textFieldValue = "text.field-value"
    case textFrameColumn = "text.frame-column"
    // Binary containers.
    case lengthField = "binary.length-field"
    case octalField = "tar.octal-field"
    case headerBytes = "binary.header-bytes"
    case schemaText = "sqlite.schema-text"
    // DWARF (issue 38: shapes byte mutation does not reach).
    /// A DWARF 5 line table's directory and file entry formats emptied and their counts set to a million: entries
    /// that read no bytes.
    case dwarfEmptyEntryFormats = "dwarf.empty-entry-formats"
    /// A DWARF 5 `directories_count` set far beyond the bytes (formats kept).
    case dwarfEntryCount = "dwarf.entry-count"
    /// One line table's `unit_length` and `header_length` pointed at a later table's program, so two headers run
    /// one program.
    case dwarfSharedProgram = "dwarf.shared-program"
    /// A unit's or table's version set to another of 2 to 5, or just outside them.
    case dwarfVersion = "dwarf.version"
    /// A unit or table rewritten from 32-bit to 64-bit DWARF (its length and offset-sized header fields widened).
    case dwarfOffsetSize = "dwarf.offset-size"
    /// An attribute's or entry format's form replaced by another form, known or not.
    case dwarfForm = "dwarf.form"
    /// Inflates a gzip or zlib stream, mutates what is inside by its own family, and compresses it again.
    case compressedContent = "compressed.content"

    /// The span role a structure-aware mutator needs, nil for byte-level ones.
    var requiredRole: StructureMap.Role? {
        switch self {
        case .jsonReplaceValue, .jsonDeleteValue, .jsonDuplicateValue, .jsonDeepNesting, .jsonSwapValues:
            .jsonValue
        case .jsonNumberAtLimit: .jsonNumber
        case .jsonRenameKey: .jsonKey
        case .textDeleteLine, .textDuplicateLine, .textSwapLines: .line
        case .textFieldValue: .fieldValue
        case .textFrameColumn: .frameColumn
        case .octalField: .octalField
        case .headerBytes: .headerBytes
        case .schemaText: .schemaText
        case .dwarfEmptyEntryFormats, .dwarfEntryCount, .dwarfSharedProgram: .dwarfLineTable
        case .dwarfVersion, .dwarfOffsetSize: .dwarfLineTable
        case .dwarfForm: .dwarfForm
        default: nil
        }
    }

    /// True for the mutators that use the input's structure.
    package var isStructureAware: Bool {
        requiredRole != nil || self == .lengthField || self == .compressedContent
    }
}
