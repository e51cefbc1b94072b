import APMInspectCore
import CrashReportParsing

extension BackendIncident {
    /// A microstackshot resource report: a fatal resource kill (206, or an action that killed the process) or a
    /// warning-level resource event (145, 202); never an app crash.
    package init(resource report: ResourceReport) {
        let resource = Self.names(report.resource)
        if report.isFatal {
            self.init(
                kind: .resourceKill,
                exceptionType: "\(resource.type)ResourceKill",
                mechanismType: "resource_kill"
            )
        } else {
            self.init(
                kind: .resourceWarning,
                exceptionType: "\(resource.type)ResourceLimit",
                mechanismType: "resource_limit"
            )
            isFatal = false
        }
        var value: [String] = []
        if let observed = report.observed {
            var text = "\(resource.noun) \(observed.text)"
            if let over = report.observedDurationSeconds { text += " over \(Self.secondsText(over))" }
            value.append(text)
        }
        if let limit = report.limit {
            var text = "limit \(limit.text)"
            if let window = report.limitDurationSeconds { text += " over \(Self.secondsText(window))" }
            value.append(text)
        }
        if let action = report.actionTaken { value.append("action taken: \(action)") }
        exceptionValue = value.isEmpty ? report.summary : value.joined(separator: ", ")
        process = report.process
        hardwareModel = report.hardwareModel
        deviceArch = report.architecture
        osRawDescription = report.osVersion
        timestamp = report.header?.timestamp
        incidentID = report.header?.incidentID
        bugType = report.bugType
        // Apple's order is innermost first; the report lists the heaviest stack outermost first.
        let frames = report.heaviestStack.reversed().map(Self.frame)
        threads = [Thread(id: 0, name: "heaviest stack", crashed: false, isMain: false, frames: frames)]
        exceptionThread = frames.isEmpty ? nil : 0
        // The innermost frame by name; an offset changes with each build, so without a name Sentry's own grouping
        // of the stack (after it symbolicates) stands in.
        var top = "{{ default }}"
        if let frame = report.heaviestStack.last, let symbol = frame.symbol, symbol != "???", !symbol.isEmpty {
            top = (frame.image ?? "?") + "`" + symbol
        }
        fingerprint = [kind.tag, report.process ?? "unknown", resource.tag, top]
        extra.append(("resource", resource.tag))
        if let summary = report.summary { extra.append(("resource_summary", summary)) }
        if let sampled = report.durationSampledSeconds { extra.append(("duration_sampled_s", String(sampled))) }
        if let steps = report.steps { extra.append(("steps", String(steps))) }
    }

    /// A system watchdog crash (409): an error-level system event naming the service the watchdog gave up on, with
    /// that process's threads; not the crash of an app.
    package init(systemWatchdog report: SystemWatchdogReport) {
        self.init(kind: .systemWatchdog, exceptionType: "SystemWatchdog", mechanismType: "system_watchdog")
        isFatal = false
        var value = [report.process ?? "a service"]
        if let termination = report.termination {
            if let namespace = termination.namespace { value.append(namespace) }
            if let indicator = termination.indicator { value.append(indicator) }
        }
        exceptionValue = value.joined(separator: ": ")
        process = report.process
        hardwareModel = report.modelCode
        osRawDescription = report.build ?? report.header?.osVersion
        timestamp = report.header?.timestamp
        incidentID = report.header?.incidentID
        bugType = report.bugType
        if let watched = report.watchedProcess {
            threads = watched.threads.enumerated().map { index, thread in
                Thread(
                    id: index,
                    name: thread.name,
                    crashed: false,
                    isMain: thread.name == "com.apple.main-thread",
                    frames: thread.frames.map(Self.frame)
                )
            }
            exceptionThread = threads.first(where: \.isMain)?.id ?? threads.first?.id
        }
        fingerprint = [
            kind.tag, report.process ?? "unknown", report.termination?.namespace ?? "?",
            report.termination?.indicator ?? "?",
        ]
        for detail in report.termination?.details.prefix(4) ?? [] { extra.append(("termination_detail", detail)) }
    }

    private static func frame(_ frame: SampledFrame) -> Frame {
        Frame(
            instructionAddress: frame.address?.value,
            package: frame.image,
            imageName: frame.image,
            function: frame.symbol == "???" ? nil : frame.symbol,
            imageOffset: frame.imageOffset,
            imageUUID: frame.imageUUID.map { $0.lowercased().filter { $0 != "-" } }
        )
    }

    private static func secondsText(_ seconds: Double) -> String {
        "\(seconds.wholeOrDecimalText) s"
    }

    /// The names a resource goes by in the events: the exception type's prefix, the verb, the tag.
    private static func names(_ resource: ResourceReport.Resource) -> (type: String, noun: String, tag: String) {
        switch resource {
        case .diskWrites: ("DiskWrites", "wrote", "disk_writes")
        case .cpu: ("CPU", "used", "cpu")
        case .wakeups: ("Wakeups", "woke", "wakeups")
        case .other: ("", "used", "other")
        }
    }
}
