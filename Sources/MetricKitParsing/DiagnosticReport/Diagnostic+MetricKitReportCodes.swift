import APMInspectCore

// The codes of the reader of iOS/macOS 27 `DiagnosticReport` JSON (its tree, crash and measurement findings share
// the payload reader's codes). Each doc comment says what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// A value is written in another form than the one Swift's synthesized `Codable` gives Apple's declaration (no
    /// public sample exists to confirm either): the variant was read, and the report is as complete as it would
    /// have been.
    /// Example: crash holds the diagnostic itself, not under _0 as synthesized Codable writes an unlabelled associated value: read as such
    package static let metricKitCodableVariant = Self("metrickit.codable-variant")
    /// A report's `result` names no diagnostic kind this reader knows (a case added by a later OS): it is kept as
    /// written among the report's unknown keys, and no diagnostic is counted for it.
    /// Example: the result is none of crash, hang, cpuException, diskWriteException, appLaunch, memoryException (thermalException): kept as written
    package static let metricKitUnknownResult = Self("metrickit.unknown-result")
    /// A report has no `result`: its environment and time range were read, and it holds no diagnostic.
    /// Example: the diagnostic report has no result: it holds no diagnostic
    package static let metricKitNoResult = Self("metrickit.no-result")
}
