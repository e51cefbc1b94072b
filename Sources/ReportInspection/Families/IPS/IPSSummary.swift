import APMInspectCore

/// The overview of an `.ips` file whose family has no model in this build (panics, stackshots, crashes …).
public struct IPSSummary: Sendable, Encodable {
    /// The header's `bug_type`.
    public var bugType: String?
    /// The bug type's name from the registry, when it is known.
    public var bugTypeName: String?
    /// The registry's family for the bug type (panic, stackshot …).
    public var family: String?
    /// The header as read.
    public var header: IPSHeader?
    /// What the body is (`json`, `text`, `empty` …).
    public var bodyKind: String
    /// The body's size in bytes.
    public var bodyBytes: Int
    /// One line on what the file is and why it has no model.
    public var note: String

    /// A summary from its parts.
    package init(
        bugType: String?,
        bugTypeName: String?,
        family: String?,
        header: IPSHeader?,
        bodyKind: String,
        bodyBytes: Int,
        note: String
    ) {
        self.bugType = bugType
        self.bugTypeName = bugTypeName
        self.family = family
        self.header = header
        self.bodyKind = bodyKind
        self.bodyBytes = bodyBytes
        self.note = note
    }
}
