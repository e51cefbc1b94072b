import APMInspectCore

/// Writes incidents as one OTLP/JSON logs document (`ExportLogsServiceRequest`): `resourceLogs → scopeLogs →
/// logRecords`, field names in lowerCamelCase, 64-bit integers as decimal strings, enums as numbers.
///
/// The resource is the reporter (apm-inspect): the crashed app's service, OS and device facts are record
/// attributes, as the `app.crash` convention asks of reports sent after the fact by someone else.
package struct OTLPLogWriter: Sendable {
    package var toolVersion: String

    /// A writer whose records carry `toolVersion` as `service.version`.
    package init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    /// The document for the incidents of one file, each with its id, and its MetricKit metric payloads.
    package func document(
        _ incidents: [(incident: BackendIncident, id: EventIdentity)],
        metricPayloads: [MetricPayloadFigures] = []
    ) -> JSONValue {
        var resource = JSONObjectBuilder()
        resource.add(
            "attributes",
            .array([
                Self.attribute("service.name", .string("apm-inspect")),
                Self.attribute("service.version", .string(toolVersion)),
            ])
        )
        var scope = JSONObjectBuilder()
        scope.add("name", string: "apm-inspect")
        scope.add("version", string: toolVersion)
        var scopeLogs = JSONObjectBuilder()
        scopeLogs.add("scope", object: scope)
        scopeLogs.add(
            "logRecords",
            .array(incidents.map { record($0.incident, id: $0.id) } + metricPayloads.map(metricRecord))
        )
        var resourceLogs = JSONObjectBuilder()
        resourceLogs.add("resource", object: resource)
        resourceLogs.add("scopeLogs", .array([scopeLogs.value]))
        var document = JSONObjectBuilder()
        document.add("resourceLogs", .array([resourceLogs.value]))
        return document.value
    }

    /// The event name: `app.crash` for terminations, `app.jank` for hangs (MetricKit's and crash reporters'), `exception` for a report that says it
    /// is not fatal (EXC_RESOURCE), and OpenTelemetry Swift's diagnostic names for the MetricKit exceptions no
    /// convention names.
    package static func eventName(_ incident: BackendIncident) -> String {
        switch incident.kind {
        case .crash where !incident.isFatal: "exception"
        case .crash, .watchdog, .outOfMemory, .metricKitCrash: "app.crash"
        case .metricKitHang, .hang: "app.jank"
        case .metricKitCPUException: "metrickit.diagnostic.cpu_exception"
        case .metricKitDiskWriteException: "metrickit.diagnostic.disk_write_exception"
        // No convention names these: they are the OS's events about a process, not the app's crash or jank.
        case .resourceKill: "apple.resource.kill"
        case .resourceWarning: "apple.resource.limit"
        case .systemWatchdog: "apple.system_watchdog"
        case .systemMemoryKill: "apple.jetsam.system_kill"
        }
    }

    /// Severity numbers of the log data model: FATAL 21, ERROR 17, WARN 13.
    static func severity(_ incident: BackendIncident) -> (number: Int, text: String) {
        if incident.isFatal { return (21, "FATAL") }
        switch incident.kind {
        case .metricKitHang, .hang, .systemWatchdog: return (17, "ERROR")
        default: return (13, "WARN")
        }
    }

    func record(_ incident: BackendIncident, id: EventIdentity) -> JSONValue {
        let name = Self.eventName(incident)
        let severity = Self.severity(incident)
        var record = JSONObjectBuilder()
        record.add("timeUnixNano", string: incident.timestamp?.unixNanosecondsText)
        record.add("severityNumber", integer: severity.number)
        record.add("severityText", string: severity.text)
        record.add("eventName", string: name)
        var body = incident.exceptionType
        if let value = incident.exceptionValue, !value.isEmpty { body += ": " + value }
        record.add("body", .object([JSONValue.Member(key: "stringValue", value: .string(body))]))
        var attributes: [JSONValue] = []
        func add(_ key: String, _ value: AttributeValue?) {
            guard let value else { return }
            if case .string(let text) = value, text.isEmpty { return }
            attributes.append(Self.attribute(key, value))
        }
        // `event.name` as an attribute too: collectors and backends built before the `eventName` field read it there.
        add("event.name", .string(name))
        if name == "app.crash" {
            add("app.crash.id", .string(id.dashed))
        }
        add("exception.type", .string(incident.exceptionType))
        add("exception.message", incident.exceptionValue.map(AttributeValue.string))
        add("exception.stacktrace", Self.stacktrace(incident).map(AttributeValue.string))
        add("app.build_id", incident.appBuildID.map(AttributeValue.string))
        add("service.name", (incident.process ?? incident.bundleId).map(AttributeValue.string))
        add("service.version", Self.serviceVersion(incident).map(AttributeValue.string))
        add("os.type", .string("darwin"))
        add("os.name", incident.osName.map(AttributeValue.string))
        add("os.version", incident.osVersion.map(AttributeValue.string))
        add("os.build_id", incident.osBuild.map(AttributeValue.string))
        add("os.description", incident.osRawDescription.map(AttributeValue.string))
        if incident.hardwareModel != nil { add("device.manufacturer", .string("Apple")) }
        add("device.model.identifier", incident.hardwareModel.map(AttributeValue.string))
        // OpenTelemetry Swift names each diagnostic record in a `name` attribute; queries written for it find these.
        switch incident.kind {
        case .metricKitCrash: add("name", .string("metrickit.diagnostic.crash"))
        case .metricKitHang: add("name", .string("metrickit.diagnostic.hang"))
        case .metricKitCPUException: add("name", .string("metrickit.diagnostic.cpu_exception"))
        case .metricKitDiskWriteException: add("name", .string("metrickit.diagnostic.disk_write_exception"))
        default: break
        }
        for (key, value) in incident.metricKitAttributes { add(key, value) }
        add("apm_inspect.kind", .string(incident.kind.tag))
        add("apm_inspect.bundle_id", incident.bundleId.map(AttributeValue.string))
        add("apm_inspect.signature", incident.signature.map(AttributeValue.string))
        add("apm_inspect.incident_id", incident.incidentID.map(AttributeValue.string))
        add("apm_inspect.bug_type", incident.bugType.map(AttributeValue.string))
        for (key, value) in incident.extra { add("apm_inspect." + key, .string(value)) }
        record.add("attributes", .array(attributes))
        return record.value
    }

    /// The event name of a metric payload's record: OpenTelemetry Swift reports the payload as a span named
    /// `MXMetricPayload`; a logs document carries it as an event of this name with the same attributes.
    package static let metricPayloadEventName = "metrickit.metric_payload"

    /// One record for a MetricKit metric payload: INFO, stamped with the window's end, the figures as attributes.
    func metricRecord(_ figures: MetricPayloadFigures) -> JSONValue {
        var record = JSONObjectBuilder()
        record.add("timeUnixNano", string: figures.end?.unixNanosecondsText)
        record.add("severityNumber", integer: 9)
        record.add("severityText", string: "INFO")
        record.add("eventName", string: Self.metricPayloadEventName)
        record.add("body", .object([JSONValue.Member(key: "stringValue", value: .string("MXMetricPayload"))]))
        var attributes: [JSONValue] = [Self.attribute("event.name", .string(Self.metricPayloadEventName))]
        func add(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            attributes.append(Self.attribute(key, .string(value)))
        }
        add("service.name", figures.bundleId)
        add("service.version", figures.appVersion)
        add("os.type", "darwin")
        add("os.name", figures.osName)
        add("os.version", figures.osVersion)
        add("os.build_id", figures.osBuild)
        add("device.model.identifier", figures.hardwareModel)
        attributes += figures.attributes.map { Self.attribute($0.key, $0.value) }
        record.add("attributes", .array(attributes))
        return record.value
    }

    /// `1.2.0 (45)`: version and build, as OpenTelemetry Swift's resource writes `service.version`.
    static func serviceVersion(_ incident: BackendIncident) -> String? {
        switch (incident.appVersion, incident.appBuild) {
        case (let version?, let build?) where !build.isEmpty && build != version: "\(version) (\(build))"
        case (let version?, _): version
        case (nil, let build?): build
        case (nil, nil): nil
        }
    }

    /// Apple's text layout for crashes (innermost frame first), the JSON of OpenTelemetry Swift's proposal for
    /// MetricKit call stacks.
    static func stacktrace(_ incident: BackendIncident) -> String? {
        switch incident.kind {
        case .metricKitCrash, .metricKitHang, .metricKitCPUException, .metricKitDiskWriteException:
            return metricKitStacktrace(incident)
        default:
            let frames = incident.framesOfException
            guard !frames.isEmpty else { return nil }
            var lines: [String] = []
            if let thread = incident.exceptionThread, incident.exceptionFrames == nil {
                lines.append("Thread \(thread) " + (incident.isFatal ? "Crashed:" : "Attributed:"))
            } else if incident.exceptionFrames != nil {
                lines.append("Last Exception Backtrace:")
            }
            for (index, frame) in frames.enumerated() {
                var line = "\(index)  \(frame.imageName ?? "???")  "
                line += frame.instructionAddress.map { HexValue($0).description } ?? "?"
                if let function = frame.function {
                    line += "  " + function
                } else if let offset = frame.imageOffset {
                    line += "  + \(offset)"
                }
                if let file = frame.fileName {
                    line += " (\(file)" + (frame.line.map { ":\($0)" } ?? "") + ")"
                }
                lines.append(line)
            }
            return lines.joined(separator: "\n")
        }
    }

    private static func metricKitStacktrace(_ incident: BackendIncident) -> String? {
        guard !incident.threads.isEmpty else { return nil }
        let stacks: [JSONValue] = incident.threads.map { thread in
            var stack = JSONObjectBuilder()
            stack.add("threadAttributed", bool: thread.crashed)
            let frames: [JSONValue] = thread.frames.map { frame in
                var object = JSONObjectBuilder()
                object.add("binaryName", .string(frame.imageName ?? frame.package ?? ""))
                object.add("binaryUUID", .string(frame.imageUUID.map { EventIdentity.dashed($0).uppercased() } ?? ""))
                object.add("offsetAddress", integer: frame.imageOffset ?? 0)
                return object.value
            }
            stack.add("callStackFrames", .array(frames))
            return stack.value
        }
        var root = JSONObjectBuilder()
        root.add(
            "callStackPerThread",
            bool: incident.kind != .metricKitCPUException
                && incident.kind != .metricKitDiskWriteException
        )
        root.add("callStacks", .array(stacks))
        return try? SortedJSONEncoder().encode(root.value)
    }

    static func attribute(_ key: String, _ value: AttributeValue) -> JSONValue {
        let typed: JSONValue.Member
        switch value {
        case .string(let text): typed = JSONValue.Member(key: "stringValue", value: .string(text))
        case .int(let number): typed = JSONValue.Member(key: "intValue", value: .string(String(number)))
        case .double(let number):
            typed = JSONValue.Member(key: "doubleValue", value: number.isFinite ? .number(String(number)) : .null)
        case .bool(let flag): typed = JSONValue.Member(key: "boolValue", value: .bool(flag))
        }
        return .object([
            JSONValue.Member(key: "key", value: .string(key)),
            JSONValue.Member(key: "value", value: .object([typed])),
        ])
    }
}
