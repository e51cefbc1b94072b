import APMInspectCore
import CrashReportParsing
import WatchdogAnalysis

// `scan` writes one envelope per file: written directly, a crash report's envelope goes from the model to the
// output without the encoder's member sorting. Models without a writer of their own go through their
// `encode(to:)`, byte for byte as before.
extension Inspection: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order: `report` as `null` when there is none.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("contentHash", contentHash.map(ContentHash.text))
        object.write("crashpoint", encoding: crashpoint)
        object.write("diagnostics", diagnostics)
        object.write("error", failure)
        object.write("file", file)
        object.write("kind", kind.rawValue)
        switch report {
        case nil: object.writeNull("report")
        case .crash(let crash): object.write("report", crash)
        case .jetsam(let event): object.write("report", event)
        case .watchdog(let crash, let watchdog):
            object.write("report", WatchdogReport(crash: crash, watchdog: watchdog))
        case .some(let other): object.write("report", encoding: other)
        }
        object.write("schemaVersion", Self.schemaVersion)
        object.write("source", encoding: source)
    }

    /// A watchdog termination's report: the crash report's members and `watchdog`, which sorts after all of them.
    struct WatchdogReport: JSONDirectEncodable {
        var crash: CrashReport
        var watchdog: WatchdogTermination

        func encode(to encoder: any Encoder) throws {
            try Report.watchdog(crash, watchdog).encode(to: encoder)
        }

        func writeJSONMembers(into object: inout JSONObjectWriter) {
            crash.writeJSONMembers(into: &object)
            object.write("watchdog", watchdog)
        }
    }
}

extension Inspection.Failure: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("code", code)
        object.write("location", location)
        object.write("message", message)
    }
}
