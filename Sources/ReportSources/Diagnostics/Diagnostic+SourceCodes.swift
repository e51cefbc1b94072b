import APMInspectCore

// The codes the input layer gives findings of its own (outside the readers). Each doc comment says what the
// code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them into
// docs/diagnostics.md.
extension Diagnostic.Code {
    /// An archive being scanned for reports could not be read past some point: the reports found before it were
    /// inspected, later members were not.
    /// Example: cannot read the archive: read failed: Input/output error
    package static let scanUnreadableArchive = Self("scan.unreadable-archive")
}
