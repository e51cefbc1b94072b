import APMInspectCore

/// Writes incidents as Sentry events (the v7 event protocol, as Relay's JSON Schema describes it).
package struct SentryEventWriter: Sendable {
    /// The `sdk.version` the events name.
    package var toolVersion: String
    /// When the events are sent, in seconds since 1970; nil to skip the retention check.
    package var now: Int64?

    /// How far back Sentry takes an event's own time: 90 days, the event retention of sentry.io.
    ///
    /// Relay stamps an older event with the time it receives it, so the event sorts and ages as if it happened
    /// the day it was sent.
    package static let retentionSeconds: Int64 = 90 * 86_400

    /// A writer whose events name `toolVersion` as the SDK version, checked against Sentry's retention at `now`.
    package init(toolVersion: String, now: Int64? = nil) {
        self.toolVersion = toolVersion
        self.now = now
    }

    /// True when the incident's time is older than ``retentionSeconds`` before ``now``: Sentry will show the time
    /// it receives the event instead, and the event keeps its own in the `original_timestamp` tag.
    package func isBeyondRetention(_ incident: BackendIncident) -> Bool {
        guard let now, let seconds = incident.timestamp?.unixParts?.seconds else { return false }
        let (oldest, overflow) = now.subtractingReportingOverflow(Self.retentionSeconds)
        return !overflow && seconds < oldest
    }

    /// The event of one incident, with the id given (see ``EventIdentity``).
    package func event(_ incident: BackendIncident, id: EventIdentity) -> JSONValue {
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

    /// The incident's own fingerprint; none otherwise, so that Sentry groups by the stack trace it symbolicates
    /// (the signature hash is no fingerprint: it is made of offsets when the frames have no names).
    static func fingerprint(_ incident: BackendIncident) -> [String]? {
        guard let fingerprint = incident.fingerprint, !fingerprint.isEmpty else { return nil }
        return fingerprint
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
        // Sentry's models (sentry-cli's among them) want a signal's number and a Mach exception's whole triple:
        // a part without them is left out rather than guessed.
        if let signal = incident.signal, signal.number != nil {
            var object = JSONObjectBuilder()
            object.add("number", integer: signal.number)
            object.add("name", string: signal.name)
            object.add("code", integer: signal.code)
            object.add("code_name", string: signal.codeName)
            meta.add("signal", object: object)
        }
        if let mach = incident.machException, mach.exception != nil, mach.code != nil, mach.subcode != nil {
            var object = JSONObjectBuilder()
            object.add("exception", integer: mach.exception)
            object.add("name", string: mach.name)
            object.add("code", integer: mach.code)
            object.add("subcode", integer: mach.subcode)
            meta.add("mach_exception", object: object)
        }
        mechanism.add("meta", object: meta)
        var data = JSONObjectBuilder()
        data.add("relevant_address", address: incident.relevantAddress)
        mechanism.add("data", object: data)
        value.add("mechanism", object: mechanism)
        // The crashed thread's registers go with the exception's stack when it is that thread's.
        let registers =
            incident.exceptionFrames == nil
            ? incident.threads.first { $0.id == incident.exceptionThread }?.registers ?? [] : []
        value.add("stacktrace", object: stacktrace(incident.framesOfException, registers: registers))
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
            object.add("stacktrace", object: stacktrace(thread.frames, registers: thread.registers))
            return object.value
        }
        threads.add("values", .array(values))
        return threads
    }

    /// Sentry lists frames oldest first: the reverse of Apple's order.
    private func stacktrace(
        _ frames: [BackendIncident.Frame],
        registers: [BackendIncident.Register] = []
    ) -> JSONObjectBuilder {
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
        var state = JSONObjectBuilder()
        for register in registers { state.add(register.name, address: register.value) }
        stacktrace.add("registers", object: state)
        return stacktrace
    }

    private func debugMeta(_ incident: BackendIncident) -> JSONObjectBuilder {
        var meta = JSONObjectBuilder()
        guard !incident.images.isEmpty else { return meta }
        // `apple` images (`name`, `uuid`): the one Mach-O image type both Relay and the Sentry Rust SDK's model
        // know, and sentry-cli parses envelopes with that model (it rejects `macho` as an unknown variant). That
        // model also wants a size: an image without one is left out and counted.
        let images = incident.images.compactMap { image -> JSONValue? in
            guard let size = image.size else { return nil }
            var object = JSONObjectBuilder()
            object.add("type", string: "apple")
            object.add("uuid", string: EventIdentity.dashed(image.uuid))
            object.add("image_addr", address: image.address)
            object.add("image_size", integer: size)
            object.add("image_vmaddr", address: image.vmAddress)
            object.add("name", .string(image.codeFile))
            object.add("arch", string: image.arch)
            return object.value
        }
        guard !images.isEmpty else { return meta }
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
        addContext("device", device, to: &contexts)
        var os = JSONObjectBuilder()
        os.add("name", string: incident.osName)
        os.add("version", string: incident.osVersion)
        os.add("build", string: incident.osBuild)
        os.add("raw_description", string: incident.osRawDescription)
        addContext("os", os, to: &contexts)
        var app = JSONObjectBuilder()
        app.add("app_identifier", string: incident.bundleId)
        app.add("app_name", string: incident.process)
        app.add("app_version", string: incident.appVersion)
        app.add("app_build", string: incident.appBuild)
        addContext("app", app, to: &contexts)
        return contexts
    }

    /// Sentry names a context's kind in its own `type` member, and an empty context is left out.
    private func addContext(_ type: String, _ context: JSONObjectBuilder, to contexts: inout JSONObjectBuilder) {
        guard !context.isEmpty else { return }
        var context = context
        context.add("type", string: type)
        contexts.add(type, object: context)
    }

    /// Sentry keeps tag values up to 200 characters.
    private func tags(_ incident: BackendIncident) -> JSONObjectBuilder {
        var tags = JSONObjectBuilder()
        tags.add("kind", string: incident.kind.tag)
        tags.add("incident_id", string: incident.incidentID.map { String($0.prefix(200)) })
        tags.add("bug_type", string: incident.bugType.map { String($0.prefix(200)) })
        tags.add("signature", string: incident.signature.map { String($0.prefix(200)) })
        if isBeyondRetention(incident) {
            tags.add("original_timestamp", string: incident.timestamp.map { String($0.iso8601.prefix(200)) })
        }
        return tags
    }

    private func extra(_ incident: BackendIncident) -> JSONObjectBuilder {
        var extra = JSONObjectBuilder()
        for (key, value) in incident.extra { extra.add(key, string: value) }
        let unsized = incident.images.count { $0.size == nil }
        if unsized > 0 { extra.add("images_without_size", string: String(unsized)) }
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
