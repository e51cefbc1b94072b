import APMInspectCore

/// The overview of an `.ips` file whose family has no model in this build (panics, stackshots, crashes …).
public struct IPSSummary: Sendable, Encodable {
    public var bugType: String?
    public var bugTypeName: String?
    public var family: String?
    public var header: IPSHeader?
    public var bodyKind: String
    public var bodyBytes: Int
    public var note: String

    /// A summary from its parts.
    public init(
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
