import APMInspectCore

/// What is known of a file no parser in this build reads.
public struct UnrecognisedSummary: Sendable, Encodable {
    public var format: ContentFormat
    public var bytes: Int
    public var note: String

    package init(format: ContentFormat, bytes: Int, note: String) {
        self.format = format
        self.bytes = bytes
        self.note = note
    }
}
