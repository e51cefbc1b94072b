import APMInspectCore

/// The anonymized copy of one report, or why there is none.
package struct AnonymizedReport {
    /// The kind the original was read as.
    package var kind: FileKind
    /// The copy; nil when the file was refused or the copy did not read as the original did.
    package var bytes: [UInt8]?
    /// How many values of each category were replaced.
    package var counts: [AnonymizedCategory: Int]
    /// True when the original was gzip-compressed: the copy is the plain text.
    package var decompressed: Bool
    /// Why there is no copy (errors), as findings about the input.
    package var diagnostics: [Diagnostic]

    static func refused(_ kind: FileKind, _ message: String) -> AnonymizedReport {
        AnonymizedReport(
            kind: kind,
            bytes: nil,
            counts: [:],
            decompressed: false,
            diagnostics: [Diagnostic(.error, .anonymizeUnsupported, message)]
        )
    }
}
