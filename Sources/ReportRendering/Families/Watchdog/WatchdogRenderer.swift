import APMInspectCore
import CrashReportParsing
import WatchdogAnalysis

/// The human summary of a watchdog report: the verdict in one line, the diagnosis, then the crash summary.
package enum WatchdogRenderer {
    package static func render(
        _ watchdog: WatchdogTermination,
        report: CrashReport,
        file: String,
        options: CrashViewOptions = .standard
    ) -> StyledText {
        var out = "Watchdog termination  \(file)\n"
        out += "  " + verdict(watchdog, report: report) + "\n"
        var fields: [(String, String)] = []
        if let code = watchdog.code {
            fields.append(("Code", "\(code)" + (watchdog.codeName.map { " \"\($0)\"" } ?? "")))
        }
        if let meaning = watchdog.meaning { fields.append(("Meaning", meaning)) }
        var namespace = watchdog.namespace ?? ""
        if let domain = watchdog.domain {
            namespace += " (domain \(domain)\(watchdog.domainName.map { " = \($0)" } ?? ""))"
        }
        if !namespace.isEmpty { fields.append(("Namespace", namespace)) }
        if let event = watchdog.event { fields.append(("Event", event)) }
        let visibility = [
            watchdog.processVisibility.map { "process \($0)" }, watchdog.processState.map { "state \($0)" },
            watchdog.watchdogVisibility.map { "watchdog \($0)" },
        ].compactMap { $0 }
        if !visibility.isEmpty { fields.append(("Visibility", visibility.joined(separator: ", "))) }
        if let cpu = watchdog.cpu {
            var parts: [String] = []
            if let total = cpu.totalSeconds {
                var text = "total \(seconds(total))"
                if let user = cpu.userSeconds, let system = cpu.systemSeconds {
                    text += " (user \(seconds(user)), system \(seconds(system)))"
                }
                if let percent = cpu.totalPercent { text += " \(Formatting.median(percent)) %" }
                parts.append(text)
            }
            if let app = cpu.appSeconds {
                parts.append("app \(seconds(app))" + (cpu.appPercent.map { " \(Formatting.median($0)) %" } ?? ""))
            }
            fields.append(("CPU", parts.joined(separator: "; ")))
        }
        if let thermal = watchdog.thermal {
            fields.append(
                (
                    "Thermal",
                    [thermal.level.map { "level \($0)" }, thermal.state].compactMap { $0 }.joined(separator: ", ")
                )
            )
        }
        if let flags = watchdog.flags, !flags.isEmpty { fields.append(("Flags", flags.joined(separator: ", "))) }
        out += InspectionRenderer.keyValues(fields)
        if let diagnosis = watchdog.diagnosis {
            out += "\nMain thread: \(diagnosis.summary) (\(diagnosis.confidence.rawValue) confidence)\n"
            for reason in diagnosis.reasons { out += "  - \(reason)\n" }
            if !diagnosis.evidenceFrames.isEmpty {
                out += "  evidence:\n"
                for frame in diagnosis.evidenceFrames { out += "    \(frame)\n" }
            }
        }
        var view = StyledText(out + "\n")
        view += CrashRenderer.styled(report, file: file, options: options)
        return view
    }

    /// The one-line verdict: who was killed, during which event, what it was allowed and what it used.
    package static func verdict(_ watchdog: WatchdogTermination, report: CrashReport) -> String {
        let who = [report.process, watchdog.bundleId.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        let subject = who.isEmpty ? "The process" : who
        switch watchdog.kind {
        case .watchdogTimeout:
            var text = "\(subject) was killed by the watchdog"
            if let event = watchdog.event { text += " during \(event)" }
            if let allowance = watchdog.allowanceSeconds {
                let kind = watchdog.allowanceKind?.contains("CPU") == true ? "CPU" : "wall-clock"
                text += ": allowed \(seconds(allowance)) of \(kind) time"
            }
            if let elapsed = watchdog.elapsedSeconds { text += ", took \(seconds(elapsed))" }
            if let app = watchdog.cpu?.appSeconds {
                text +=
                    ", used \(seconds(app)) of CPU"
                    + (watchdog.cpu?.appPercent.map { " (\(Formatting.median($0)) %)" } ?? "")
            }
            return text + "."
        default:
            return "\(subject) was terminated by the OS: \(watchdog.meaning ?? watchdog.kind.rawValue)."
        }
    }

    private static func seconds(_ value: Double) -> String {
        value.wholeOrDecimalText + " s"
    }
}
