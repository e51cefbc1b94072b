// The codes of the shared readers (diagnostic logs, IPS containers, archives, compression, JSON). Each doc comment
// says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them into
// docs/diagnostics.md.
extension Diagnostic.Code {
    /// More diagnostics of one code were met than a log lists; the message gives how many and which code.
    /// Example: 7 more of the same (har.negative-timing) not listed
    public static let moreNotListed = Self("diagnostic.more-not-listed")
    /// More distinct codes were met than a log keeps; the later ones are only counted.
    /// Example: 12 more diagnostics of other kinds not listed
    public static let moreKindsNotListed = Self("diagnostic.more-kinds-not-listed")
    /// JSON written before diagnostics carried codes, read back: the diagnostic has no code of its own.
    /// Example: (a diagnostic read from an older apm-inspect's JSON output)
    public static let uncoded = Self("diagnostic.uncoded")

    /// The file began with a UTF-8 byte order mark, which was skipped.
    /// Example: skipped a UTF-8 byte order mark
    public static let ipsByteOrderMark = Self("ips.byte-order-mark")
    /// The first line is too long to be an `.ips` header line; the file is read as all body.
    /// Example: line 1 is 70000 bytes long, more than the 65536 bytes of a header line; the file is read as having no header
    public static let ipsHeaderLineTooLong = Self("ips.header-line-too-long")
    /// The header line lost its first bytes (a paste or a cut file) and was read as if it began with `{"`.
    /// Example: the header line was cut at the front; read it as if it began with '{"'
    public static let ipsHeaderCutAtFront = Self("ips.header-cut-at-front")
    /// The header line was wrapped over several lines (an e-mail or a terminal) and was joined.
    /// Example: the header was wrapped over 3 lines; joined them
    public static let ipsHeaderWrapped = Self("ips.header-wrapped")
    /// The header's `bug_type` is not in Apple's table as far as apm-inspect knows it.
    /// Example: bug_type 999 is not a known Apple report type
    public static let ipsUnknownBugType = Self("ips.unknown-bug-type")
}
