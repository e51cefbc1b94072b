import APMInspectCore

// The codes of report inspection, the step that recognises a file's kind before a reader models it. Each doc comment
// says what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// The file is UTF-16 text (it starts with a byte-order mark) and was transcoded to UTF-8 before it was read:
    /// the byte offsets of other diagnostics count the UTF-8 text, not the file's bytes.
    /// Example: read as UTF-16LE text (a byte-order mark), transcoded to UTF-8; byte offsets count the UTF-8 text
    package static let reportUTF16Transcoded = Self("report.utf16-transcoded")
    /// The file is a gzip that no family reads as it is (`x.ips.gz`): the report inside it was read, and byte offsets
    /// of other diagnostics count the expanded bytes.
    /// Example: read through gzip: 1009 compressed bytes expanded to 2873; byte offsets count the expanded bytes
    package static let reportGunzipped = Self("report.gunzipped")
    /// A gzip's stream ends before its end marker (a cut download or copy): the bytes expanded before the cut were
    /// read.
    /// Example: the gzip stream ends early: the 2048 bytes before the cut were read
    package static let reportGzipTruncated = Self("report.gzip-truncated")
    /// A gzip expands past the limits every archive is read with (256 MiB, or 100:1 past 64 MiB): it was not read.
    /// Example: the gzip was not read: it expands past 268435456 bytes (size limit)
    package static let reportGzipTooLarge = Self("report.gzip-too-large")
    /// A gzip's compressed data is corrupt from its start: nothing inside it was read.
    /// Example: the gzip was not read: corrupt compressed data (invalid block type)
    package static let reportGzipUnreadable = Self("report.gzip-unreadable")
}
