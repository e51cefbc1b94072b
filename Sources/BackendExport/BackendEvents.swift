import APMInspectCore
import CrashReportParsing
import JetsamParsing
import MetricKitParsing
import WatchdogAnalysis

/// The incidents of each report a backend takes, in the order they are written (which their ids follow).
public enum BackendEvents {
    /// The incident of a crash report, a watchdog termination when `watchdog` is given; `imageVMAddress` gives
    /// the images' vmaddr where a dSYM or binary knows it.
    public static func incidents(
        crash report: CrashReport,
        watchdog: WatchdogTermination? = nil,
        imageVMAddress: (@Sendable (_ uuid: String, _ arch: String?) -> UInt64?)? = nil
    ) -> [BackendIncident] {
        BackendIncident(crash: report, watchdog: watchdog, imageVMAddress: imageVMAddress).map { [$0] } ?? []
    }

    /// The incident of a JetsamEvent (an out-of-memory termination).
    public static func incidents(jetsam event: JetsamEvent) -> [BackendIncident] {
        BackendIncident(jetsam: event).map { [$0] } ?? []
    }

    /// The incidents of a MetricKit report: one per diagnostic of each payload that makes one.
    public static func incidents(metricKit report: MetricKitReport) -> [BackendIncident] {
        var incidents: [BackendIncident] = []
        for payload in report.payloads {
            for diagnostic in payload.diagnostics {
                if let incident = BackendIncident(metricKit: diagnostic, payload: payload) {
                    incidents.append(incident)
                }
            }
        }
        return incidents
    }

    /// A resource report's event: a fatal resource kill or a warning, never an app crash.
    public static func incidents(resource report: ResourceReport) -> [BackendIncident] {
        [BackendIncident(resource: report)]
    }

    /// A system watchdog crash's event: an error-level system event.
    public static func incidents(systemWatchdog report: SystemWatchdogReport) -> [BackendIncident] {
        [BackendIncident(systemWatchdog: report)]
    }

    /// The figures of each metric payload of a MetricKit report (OTLP only: a metric payload is no incident).
    public static func metricPayloads(metricKit report: MetricKitReport) -> [MetricPayloadFigures] {
        report.payloads.compactMap(MetricPayloadFigures.init)
    }

    /// Pairs incidents with their ids: the digest of the file's bytes and each one's place in the file.
    public static func identified(_ incidents: [BackendIncident], contentDigest: [UInt8]) -> [(
        incident: BackendIncident, id: EventIdentity
    )] {
        incidents.enumerated().map { ($0.element, EventIdentity(contentDigest: contentDigest, ordinal: $0.offset)) }
    }
}
