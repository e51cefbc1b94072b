import APMInspectCore

// The codes of `apm-inspect anonymize`, each about one input it did not copy. Each doc comment says what the code
// means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// The file is of a kind whose identifiers cannot be replaced safely in place (a packet capture, a PowerLog
    /// database, a Charles XML session, a file that is not a report, text that is not UTF-8): no copy was written.
    /// Example: a packet capture is not rewritten (addresses sit in binary headers under checksums); nothing was written
    package static let anonymizeUnsupported = Self("anonymize.unsupported")
    /// The anonymized copy did not read as the original did (another kind, a failure, another crash signature,
    /// another count of processes or requests): it was not written.
    /// Example: the copy's crash signature differs from the original's; the copy was not written
    package static let anonymizeChangedReport = Self("anonymize.changed-report")
}

extension Diagnostic.Code {
    /// An input of `anonymize` could not be read (it does not exist, is empty, or an archive is damaged): there is
    /// no copy of it.
    /// Example: cannot open: No such file or directory
    package static let anonymizeUnreadable = Self("anonymize.unreadable")
}
