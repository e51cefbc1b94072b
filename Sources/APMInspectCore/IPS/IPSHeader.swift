/// The one-line JSON header of an `.ips` file, with its well-known keys typed and every key kept.
public struct IPSHeader: Sendable, Equatable, Codable {
    /// The `bug_type` that says which report the body is (`309` crash, `298` JetsamEvent …).
    public var bugType: String?
    /// The human name of ``bugType`` from the bug type registry, when it is known.
    public var bugTypeName: String?
    /// The header's `timestamp`, parsed.
    public var timestamp: AppleTimestamp?
    /// The OS version as the header writes it (`iPhone OS 17.4 (21E219)`).
    public var osVersion: String?
    /// The incident's UUID, shared with the body's copy: what deduplicates reports.
    public var incidentID: String?
    /// `name` or `app_name`, the process the report is about.
    public var name: String?
    /// The app's bundle identifier, when the report is about an app.
    public var bundleID: String?
    /// The app's `CFBundleShortVersionString` as the header writes it.
    public var appVersion: String?
    /// Every key of the header, verbatim and in order, including the typed ones above.
    @LazyJSONValue public var fields: JSONValue

    package init(
        bugType: String? = nil,
        bugTypeName: String? = nil,
        timestamp: AppleTimestamp? = nil,
        osVersion: String? = nil,
        incidentID: String? = nil,
        name: String? = nil,
        bundleID: String? = nil,
        appVersion: String? = nil,
        fields: JSONValue = .object([])
    ) {
        self.bugType = bugType
        self.bugTypeName = bugTypeName
        self.timestamp = timestamp
        self.osVersion = osVersion
        self.incidentID = incidentID
        self.name = name
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.fields = fields
    }

    /// Reads the header's keys from a parsed JSON object.
    package init(object: JSONElement) {
        func text(_ key: String) -> String? {
            guard let value = object[key] else { return nil }
            return value.string ?? value.rawText
        }
        let bug = text("bug_type")
        self.init(
            bugType: bug,
            bugTypeName: bug.map { BugType.lookup($0).name },
            timestamp: text("timestamp").flatMap(AppleTimestamp.init),
            osVersion: text("os_version"),
            incidentID: text("incident_id"),
            name: text("name") ?? text("app_name"),
            bundleID: text("bundleID"),
            appVersion: text("app_version")
        )
        _fields = LazyJSONValue(element: object)
    }

    /// The header's value for `key`, verbatim.
    package subscript(key: String) -> JSONValue? { fields[key] }

    /// `fields` as kept, for the direct writer: its text is written from a parse of it, never made into a value.
    var keptFields: LazyJSONValue { _fields }
}
