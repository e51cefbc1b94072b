import APMInspectCore

// The codes of the fleet report's NDJSON input (the envelopes `apm-inspect scan` writes, one per line). Each doc
// comment says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them
// into docs/diagnostics.md.
extension Diagnostic.Code {
    /// A line is longer than the reader takes: it is rejected unread, so the event it holds is not counted.
    /// Example: the line is longer than 67108864 bytes
    package static let fleetLineTooLong = Self("fleet.line-too-long")
    /// A line is not an envelope (not JSON, or a key missing or of the wrong type): it is rejected, so the event
    /// it holds is not counted.
    /// Example: not an envelope: the line is not JSON
    package static let fleetNotAnEnvelope = Self("fleet.not-an-envelope")
    /// The crash ledger's temporary file, where the crash records go past 2 MiB, could not be written or read back
    /// whole (a full disk): the crashes that were in it are missing from the crash groups.
    /// Example: the crash ledger's temporary file could not be written or read back: crashes are missing
    package static let fleetSpillFailed = Self("fleet.spill-failed")
}
