import APMInspectCore
import CrashReportParsing
import JetsamParsing
import MetricKitParsing
import WatchdogAnalysis

extension FleetEvent {
    /// The facts of a crash report (or KSCrash report); nil for a report that is not a crash or has no signature.
    ///
    /// `grouping`'s first rule that holds for the crash names its group.
    package static func crash(_ report: CrashReport, source: String, grouping: GroupingRules? = nil) -> Crash? {
        guard let signature = report.signature, !report.isNotACrash, report.category ?? .crash == .crash,
            !isAppleHangReport(report)
        else { return nil }
        var crash = Crash(
            signature: signature,
            source: source,
            exception: exception(of: report),
            topFrame: report.signatureFrames?.first,
            context: context(of: report)
        )
        crash.grouping = grouping?.grouping(of: report, signature: signature)
        crash.link = link(of: report)
        return crash
    }

    /// The facts of a watchdog termination.
    package static func watchdog(_ termination: WatchdogTermination, report: CrashReport) -> Watchdog {
        var reason = termination.kind.rawValue
        if let code = termination.code { reason += " " + code.description }
        if let name = termination.codeName { reason += " (" + name + ")" }
        return Watchdog(
            reason: reason,
            verdict: termination.diagnosis?.verdict.rawValue,
            context: context(of: report),
            category: report.category == .resourceKill ? .resourceKill : .watchdogTermination
        )
    }

    /// The facts of a report its reader says is not a crash (a hang, a profile, an OOM or resource kill); nil for
    /// a crash or a report that does not say.
    package static func occurrence(_ report: CrashReport) -> Occurrence? {
        // Apple's hang reports (222, 228, 310 …) are read as crash reports but record a hang.
        let category = report.category ?? (isAppleHangReport(report) ? .hang : nil)
        guard let category, category != .crash else { return nil }
        return Occurrence(
            category: category,
            hangSeconds: report.hang?.durationSeconds,
            recovered: report.hang?.recovered,
            context: context(of: report),
            incidentId: report.incidentID.flatMap(normalizedIncident)
        )
    }

    /// The facts of a JetsamEvent.
    ///
    /// Without an incident id it is identified by `contentHash` (``ContentHash`` of
    /// its file's bytes), so copies count once as in `memory-limits`; by `file` only when the hash is not known
    /// (an envelope written before envelopes carried it).
    package static func oom(_ event: JetsamEvent, contentHash: UInt64?, file: String) -> OOM {
        let killed = event.processes.filter { $0.reason != nil }
        let killedApps = killed.lazy.filter { $0.role != .daemon }.prefix(maxKilledNames).compactMap { process in
            process.reason.map {
                KilledProcess(name: process.name, uuid: process.uuid, reason: $0, limitMB: process.limitMB)
            }
        }
        return OOM(
            evidence: MemoryLimitEvidence(event: event, contentHash: contentHash, file: file),
            deviceName: event.deviceName,
            killed: killed.count,
            killedNames: killed.prefix(maxKilledNames).compactMap(\.name),
            date: event.date,
            frontmostNames: event.processes.lazy.filter { $0.states.contains("frontmost") }.prefix(maxKilledNames)
                .compactMap(\.name),
            killedDaemonsOnly: !killed.isEmpty && killed.allSatisfy { $0.role == .daemon },
            killedApps: Array(killedApps)
        )
    }

    /// The facts of an Apple resource report: a resource kill (206) or a warning (145, 202).
    package static func occurrence(resource report: ResourceReport) -> Occurrence {
        Occurrence(
            category: report.isFatal ? .resourceKill : .resourceWarning,
            context: systemContext(
                process: report.process,
                osVersion: report.osVersion,
                header: report.header,
                device: report.hardwareModel
            )
        )
    }

    /// The facts of a system watchdog crash (409): the watched service is its process.
    package static func occurrence(systemWatchdog report: SystemWatchdogReport) -> Occurrence {
        Occurrence(
            category: .systemWatchdog,
            context: systemContext(
                process: report.watchedProcess?.name ?? report.process,
                osVersion: report.header?.osVersion,
                header: report.header
            )
        )
    }

    static func systemContext(process: String?, osVersion: String?, header: IPSHeader?, device: String? = nil)
        -> Context
    {
        Context(
            bundleId: header?.bundleID,
            process: process ?? header?.name,
            appVersion: header?.appVersion,
            osVersion: osVersion ?? header?.osVersion,
            device: device,
            date: header?.timestamp
        )
    }

    /// The figures of a MetricKit file, one entry per app version and device type (in version order), and its
    /// crash diagnostics.
    package static func metricKit(_ report: MetricKitReport, grouping: GroupingRules? = nil)
        -> (figures: [MetricKitFigures], crashes: [Crash])
    {
        var crashes: [Crash] = []
        for payload in report.payloads {
            for diagnostic in payload.diagnostics where crashes.count < maxCrashesPerFile {
                if let crash = crash(metricKit: diagnostic, payload: payload, grouping: grouping) {
                    crashes.append(crash)
                }
            }
        }
        return (metricKitFigures(report), crashes)
    }

    /// The facts of one MetricKit crash diagnostic of `payload`; nil for another kind of diagnostic or a crash
    /// without a signature.
    package static func crash(
        metricKit diagnostic: MetricKitDiagnostic,
        payload: MetricKitPayload,
        grouping: GroupingRules?
    )
        -> Crash?
    {
        guard diagnostic.kind == .crash, let report = diagnostic.crashReport,
            var crash = crash(report, source: "metrickit", grouping: grouping)
        else { return nil }
        let date = payload.end ?? payload.begin
        let metadata = diagnostic.metadata
        crash.context.bundleId = metadata.bundleIdentifier ?? crash.context.bundleId
        crash.context.appVersion = metadata.appVersion ?? crash.context.appVersion
        crash.context.appBuild = metadata.appBuildVersion ?? crash.context.appBuild
        crash.context.osVersion = metadata.osVersionNumber ?? crash.context.osVersion
        crash.context.device = metadata.deviceType ?? crash.context.device
        if crash.context.date == nil {
            // The diagnostic happened somewhere in the payload's range: that range is what links it.
            crash.context.date = date
            let begin = (payload.begin ?? payload.end)?.secondsSince1970
            let end = (payload.end ?? payload.begin)?.secondsSince1970
            if let begin, let end, begin.isFinite, end.isFinite {
                crash.link.start = min(begin, end)
                crash.link.end = max(begin, end)
            }
        }
        return crash
    }

    /// The figures of a MetricKit file without its crashes (what `scan` keeps): one entry per app version and
    /// device type, in version then device order.
    ///
    /// A file groups into as many entries as it has distinct (version, device) pairs, at most
    /// ``maxFiguresPerFile``; payloads past that are left out, so a hostile file costs bounded memory.
    package static func metricKitFigures(_ report: MetricKitReport) -> [MetricKitFigures] {
        struct Key: Hashable {
            var version: String
            var device: String?
        }
        var groups: [Key: MetricKitFigures] = [:]
        func figures(_ key: Key, bundleId: String?, date: AppleTimestamp?) -> MetricKitFigures? {
            if let known = groups[key] { return known }
            guard groups.count < maxFiguresPerFile else { return nil }
            var new = MetricKitFigures(version: key.version, bundleId: bundleId, date: date)
            new.device = key.device
            return new
        }
        for payload in report.payloads {
            let date = payload.end ?? payload.begin
            if let metrics = payload.metrics {
                let key = Key(
                    version: metrics.appVersion ?? metrics.metadata?.appVersion ?? "?",
                    device: metrics.metadata?.deviceType
                )
                if var row = figures(key, bundleId: metrics.metadata?.bundleIdentifier, date: date) {
                    row.add(metrics)
                    row.date = later(row.date, date)
                    groups[key] = row
                }
            }
            for diagnostic in payload.diagnostics {
                let key = Key(version: diagnostic.metadata.appVersion ?? "?", device: diagnostic.metadata.deviceType)
                guard var row = figures(key, bundleId: diagnostic.metadata.bundleIdentifier, date: date) else {
                    continue
                }
                row.diagnostics[diagnostic.kind.rawValue, default: 0] += 1
                row.date = later(row.date, date)
                if row.binaryUUID == nil { row.binaryUUID = diagnostic.callTree.flatMap(appBinaryUUID) }
                groups[key] = row
            }
        }
        return groups.values.sorted {
            if $0.version != $1.version { return VersionOrder.precedes($0.version, $1.version) }
            return ($0.device ?? "").utf8.lexicographicallyPrecedes(($1.device ?? "").utf8)
        }
    }

    /// The UUID of the app's executable in a MetricKit call tree: the binary of the frame dyld's `start` called
    /// (MetricKit does not name the process; the tree is inverted, so that frame is `start`'s parent).
    static func appBinaryUUID(of tree: MetricKitCallTree) -> String? {
        let loaders: Set<String> = ["dyld", "libdyld.dylib"]
        for frame in tree.frames {
            guard let name = frame.binaryName, loaders.contains(name), let parent = frame.parent,
                tree.frames.indices.contains(parent)
            else { continue }
            let caller = tree.frames[parent]
            guard let callerName = caller.binaryName, !loaders.contains(callerName) else { continue }
            if let uuid = caller.binaryUUID.flatMap(binaryUUID) { return uuid }
        }
        return nil
    }

    /// Distinct (app version, device type) entries kept from one MetricKit file.
    package static let maxFiguresPerFile = 256

    static func context(of report: CrashReport) -> Context {
        Context(
            bundleId: report.bundleId,
            process: report.process,
            appVersion: report.appVersion,
            appBuild: report.appBuild,
            osVersion: report.osVersionNumber ?? report.osVersion,
            device: report.hardwareModel,
            date: report.date,
            binaryUUID: appBinaryUUID(of: report)
        )
    }

    /// The UUID of the app's main binary: the image named as the process or at its path (KSCrash and MetricKit
    /// name the images, Apple's reports mark the app's too), else the first image when it is the app's (reports
    /// list the main executable first).
    static func appBinaryUUID(of report: CrashReport) -> String? {
        let images = report.binaryImages
        let main =
            images.first { image in
                if let process = report.process, !process.isEmpty, image.name == process { return true }
                if let path = report.path, !path.isEmpty, image.path == path { return true }
                return false
            } ?? images.first.flatMap { $0.isApp ? $0 : nil }
        return main?.uuid.flatMap(binaryUUID)
    }

    static func exception(of report: CrashReport) -> String {
        let parts = [report.exception?.type, report.exception?.signal.map { "(\($0))" }].compactMap { $0 }
        return parts.isEmpty ? "?" : parts.joined(separator: " ")
    }

    /// Hang time in a histogram: each bucket's count at its midpoint (MetricKit gives no finer figure).
    static func histogramSeconds(_ histogram: MetricKitMetrics.Histogram) -> Double {
        var total = 0.0
        for bucket in histogram.buckets {
            let start = finite(bucket.start?.normalized)
            let end = finite(bucket.end?.normalized)
            let seconds = (start + end) / 2 * Double(bucket.count)
            if seconds.isFinite, seconds >= 0 { total += seconds }
        }
        return total.isFinite ? total : 0
    }

    static func finite(_ value: Double?) -> Double {
        guard let value, value.isFinite, value >= 0 else { return 0 }
        return value
    }

    static func later(_ lhs: AppleTimestamp?, _ rhs: AppleTimestamp?) -> AppleTimestamp? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return rhs.secondsSince1970 > lhs.secondsSince1970 ? rhs : lhs
    }
}
