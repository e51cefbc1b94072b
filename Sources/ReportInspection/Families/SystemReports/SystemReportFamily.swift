import APMInspectCore
import CrashReportParsing

/// Apple's system reports that are not crashes: the system watchdog crash (409) and the microstackshot resource
/// reports (142 wakeups, 145 disk writes, 202 CPU usage, 206 CPU usage fatal).
///
/// After the crash family, which keeps a 409 whose body is shaped like a crash report; before the `.ips` summary,
/// which would otherwise say these types have no model.
public struct SystemReportFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "system watchdog and resource reports" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> {
        [.systemWatchdog: "System watchdog", .resourceReport: "Resource report"]
    }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard input.isJSONOrIPS, let bugType = input.container.bugType else { return nil }
        let container = input.container
        if bugType.code == "409" {
            do {
                let result = try SystemWatchdogReader().parse(container)
                return Inspection(
                    file: input.path,
                    kind: .systemWatchdog,
                    diagnostics: result.diagnostics,
                    report: .systemWatchdog(result.report),
                    failure: nil
                )
            } catch {
                return .failed(input.path, kind: .systemWatchdog, diagnostics: container.diagnostics, error)
            }
        }
        guard ResourceReportReader.reads(bugType) else { return nil }
        do {
            let result = try ResourceReportReader().parse(container)
            return Inspection(
                file: input.path,
                kind: .resourceReport,
                diagnostics: result.diagnostics,
                report: .resource(result.report),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .resourceReport, diagnostics: container.diagnostics, error)
        }
    }
}
