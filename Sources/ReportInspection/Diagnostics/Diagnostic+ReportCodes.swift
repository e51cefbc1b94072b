import APMInspectCore

// The codes of report inspection, the step that recognises a file's kind before a reader models it. Each doc comment
// says what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// The file is UTF-16 text (it starts with a byte-order mark) and was transcoded to UTF-8 before it was read:
    /// the byte offsets of other diagnostics count the UTF-8 text, not the file's bytes.
    /// Example: read as UTF-16LE text (a byte-order mark), transcoded to UTF-8; byte offsets count the UTF-8 text
    package static let reportUTF16Transcoded = Self("report.utf16-transcoded")
}

// The codes of the `.xccrashpoint` bundle metadata files.
extension Diagnostic.Code {
    /// A metadata file of an `.xccrashpoint` bundle is a binary property list, which this build does not read: the
    /// file is named as bundle metadata, without its facts.
    /// Example: a binary property list: its facts were not read
    package static let crashpointBinaryPlist = Self("xccrashpoint.binary-plist")
    /// A metadata file of an `.xccrashpoint` bundle holds more facts than are kept: the rest were counted.
    /// Example: 12 more facts were left out
    package static let crashpointFactsLeftOut = Self("xccrashpoint.facts-left-out")
}
