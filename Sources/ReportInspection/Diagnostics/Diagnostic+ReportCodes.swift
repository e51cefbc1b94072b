import APMInspectCore

// The codes of report inspection, the step that recognises a file's kind before a reader models it. Each doc comment
// says what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// The file is UTF-16 text (it starts with a byte-order mark) and was transcoded to UTF-8 before it was read:
    /// the byte offsets of other diagnostics count the UTF-8 text, not the file's bytes.
    /// Example: read as UTF-16LE text (a byte-order mark), transcoded to UTF-8; byte offsets count the UTF-8 text
    package static let reportUTF16Transcoded = Self("report.utf16-transcoded")
}
