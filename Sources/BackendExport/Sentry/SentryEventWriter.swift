import APMInspectCore

/// Writes incidents as Sentry events (the v7 event protocol, as Relay's JSON Schema describes it).
public struct SentryEventWriter: Sendable {
    /// The `sdk.version` the events name.
    public var toolVersion: String

    /// A writer whose events name `toolVersion` as the SDK version.
    public init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    /// The event of one incident, with the id given (see ``EventIdentity``).
    public func event(_ incident: BackendIncident, id: EventIdentity) -> JSONValue {
        var event = JSONObjectBuilder()
        event.add("event_id", string: id.hex)
        event.add("timestamp", incident.timestamp?.unixSecondsText.map(JSONValue.number))
        event.add("platform", string: "cocoa")
        event.add("level", string: Self.level(incident))
        event.add("logger", string: "apm-inspect")
        event.add("release", string: incident.release)
        event.add("dist", string: incident.appBuild)
        event.add("fingerprint", Self.fingerprint(incident).map { .array($0.map(JSONValue.string)) })
        event.add("exception", object: exception(incident))
        event.add("threads", object: threads(incident))
        event.add("debug_meta", object: debugMeta(incident))
        event.add("contexts", object: contexts(incident))
        event.add("tags", object: tags(incident))
        event.add("extra", object: extra(incident))
        var sdk = JSONObjectBuilder()
        sdk.add("name", string: "apm-inspect")
        sdk.add("version", string: toolVersion)
        event.add("sdk", object: sdk)
        return event.value
    }

    static func level(_ incident: BackendIncident) -> String {
        if incident.isFatal { return "fatal" }
        switch incident.kind {
        case .metricKitHang, .hang, .systemWatchdog: return "error"
        default: return "warning"
        }
    }

    static func fingerprint(_ incident: BackendIncident) -> [String]? {
        if let fingerprint = incident.fingerprint, !fingerprint.isEmpty { return fingerprint }
        guard let signature = incident.signature, !signature.isEmpty else { return nil }
        return [incident.kind == .crash ? signature : "\(incident.kind.tag):\(signature)"]
    }

    private func exception(_ incident: BackendIncident) -> JSONObjectBuilder {
        var value = JSONObjectBuilder()
        value.add("type", string: incident.exceptionType)
        value.add("value", string: incident.exceptionValue)
        value.add("thread_id", integer: incident.exceptionThread)
        var mechanism = JSONObjectBuilder()
        mechanism.add("type", string: incident.mechanismType)
        mechanism.add("handled", bool: false)
        var meta = JSONObjectBuilder()
        if let signal = incident.signal {
            var object = JSONObjectBuilder()
            object.add("number", integer: signal.number)
            object.add("name", string: signal.name)
            object.add("code", integer: signal.code)
            object.add("code_name", string: signal.codeName)
            meta.add("signal", object: object)
        }
        if let mach = incident.machException {
            var object = JSONObjectBuilder()
            object.add("exception", integer: mach.exception)
            object.add("name", string: mach.name)
            object.add("code", integer: mach.code)
            object.add("subcode", integer: mach.subcode)
            meta.add("mach_exception", object: object)
        }
        mechanism.add("meta", object: meta)
        value.add("mechanism", object: mechanism)
        value.add("stacktrace", object: stacktrace(incident.framesOfException))
        var exception = JSONObjectBuilder()
        exception.add("values", .array([value.value]))
        return exception
    }

    private func threads(_ incident: BackendIncident) -> JSONObjectBuilder {
        var threads = JSONObjectBuilder()
        guard !incident.threads.isEmpty else { return threads }
        let values = incident.threads.map { thread in
            var object = JSONObjectBuilder()
            object.add("id", integer: thread.id)
            object.add("name", string: thread.name)
            object.add("crashed", bool: thread.crashed)
            object.add("current", bool: thread.id == incident.exceptionThread)
            object.add("main", bool: thread.isMain ? true : nil)
            object.add("stacktrace", object: stacktrace(thread.frames))
            return object.value
        }
        threads.add("values", .array(values))
        return threads
    }

    /// Sentry lists frames oldest first: the reverse of Apple's order.
    private func stacktrace(_ frames: [BackendIncident.Frame]) -> JSONObjectBuilder {
        var stacktrace = JSONObjectBuilder()
        guard !frames.isEmpty else { return stacktrace }
        let values = frames.reversed().map { frame in
            var object = JSONObjectBuilder()
            object.add("instruction_addr", address: frame.instructionAddress)
            object.add("image_addr", address: frame.imageAddress)
            object.add("symbol_addr", address: frame.symbolAddress)
            object.add("package", string: frame.package)
            // `<redacted>` is what the OS wrote instead of a name: no function for Sentry to show or group by.
            object.add("function", string: frame.function == "<redacted>" ? nil : frame.function)
            if let file = frame.fileName, !file.isEmpty {
                let base = file.split(separator: "/").last.map(String.init) ?? file
                object.add("filename", string: base)
                if base != file { object.add("abs_path", string: file) }
            }
            object.add("lineno", integer: frame.line.flatMap { $0 > 0 ? $0 : nil })
            object.add("in_app", bool: frame.inApp)
            return object.value
        }
        stacktrace.add("frames", .array(values))
        return stacktrace
    }

    private func debugMeta(_ incident: BackendIncident) -> JSONObjectBuilder {
        var meta = JSONObjectBuilder()
        guard !incident.images.isEmpty else { return meta }
        let images = incident.images.map { image in
            var object = JSONObjectBuilder()
            object.add("type", string: "macho")
            object.add("debug_id", string: EventIdentity.dashed(image.uuid))
            object.add("image_addr", address: image.address)
            object.add("image_size", integer: image.size)
            object.add("code_file", .string(image.codeFile))
            object.add("arch", string: image.arch)
            return object.value
        }
        meta.add("images", .array(images))
        return meta
    }

    private func contexts(_ incident: BackendIncident) -> JSONObjectBuilder {
        var contexts = JSONObjectBuilder()
        var device = JSONObjectBuilder()
        device.add("model", string: incident.hardwareModel)
        device.add("family", string: AppleCodes.family(model: incident.hardwareModel))
        device.add("arch", string: incident.deviceArch)
        device.add("memory_size", integer: incident.memorySize)
        if !device.isEmpty {
            device.add("type", string: "device")
            contexts.add("device", object: device)
        }
        var os = JSONObjectBuilder()
        os.add("name", string: incident.osName)
        os.add("version", string: incident.osVersion)
        os.add("build", string: incident.osBuild)
        os.add("raw_description", string: incident.osRawDescription)
        if !os.isEmpty {
            os.add("type", string: "os")
            contexts.add("os", object: os)
        }
        var app = JSONObjectBuilder()
        app.add("app_identifier", string: incident.bundleId)
        app.add("app_name", string: incident.process)
        app.add("app_version", string: incident.appVersion)
        app.add("app_build", string: incident.appBuild)
        if !app.isEmpty {
            app.add("type", string: "app")
            contexts.add("app", object: app)
        }
        return contexts
    }

    /// Sentry keeps tag values up to 200 characters.
    private func tags(_ incident: BackendIncident) -> JSONObjectBuilder {
        var tags = JSONObjectBuilder()
        tags.add("kind", string: incident.kind.tag)
        tags.add("incident_id", string: incident.incidentID.map { String($0.prefix(200)) })
        tags.add("bug_type", string: incident.bugType.map { String($0.prefix(200)) })
        tags.add("signature", string: incident.signature.map { String($0.prefix(200)) })
        return tags
    }

    private func extra(_ incident: BackendIncident) -> JSONObjectBuilder {
        var extra = JSONObjectBuilder()
        for (key, value) in incident.extra { extra.add(key, string: value) }
        for (key, value) in incident.metricKitAttributes {
            switch value {
            case .string(let text): extra.add(key, string: text)
            case .int(let number): extra.add(key, integer: number)
            case .double(let number) where number.isFinite: extra.add(key, .number(String(number)))
            case .double: break
            case .bool(let flag): extra.add(key, bool: flag)
            }
        }
        return extra
    }
}
