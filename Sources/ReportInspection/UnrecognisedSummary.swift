import APMInspectCore

/// What is known of a file no parser in this build reads.
public struct UnrecognisedSummary: Sendable, Encodable {
    /// What the bytes look like (JSON, property list, text, binary …).
    public var format: ContentFormat
    /// The file's size in bytes.
    public var bytes: Int
    /// One line on why no family read it.
    public var note: String

    package init(format: ContentFormat, bytes: Int, note: String) {
        self.format = format
        self.bytes = bytes
        self.note = note
    }
}
