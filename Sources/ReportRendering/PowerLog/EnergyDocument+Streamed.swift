import APMInspectCore
import PowerLogReading
import ReportInspection

extension EnergyDocument {
    /// The document of a streamed read: the battery samples and sessions come from the read's spool, the rest from
    /// the report, byte for byte what encoding the document with every row in the model writes.
    ///
    /// It is written directly only (``SortedJSONEncoder`` takes the `JSONDirectEncodable` path): the rows are not in
    /// the model, so `encode(to:)` throws rather than write a document without them.
    struct Streamed: JSONDirectEncodable {
        var document: EnergyDocument
        let spool: PowerLogBatterySpool

        /// The depth of the `samples` and `sessions` arrays in the document: `{ report: { battery: { samples: [`.
        static let batteryArrayDepth = 3

        /// The members the synthesised `encode(to:)` of ``EnergyDocument`` writes, in key order.
        func writeJSONMembers(into object: inout JSONObjectWriter) {
            object.write("diagnostics", encoding: document.diagnostics)
            object.write("files", document.files)
            object.write("kind", encoding: document.kind)
            object.write("report", Report(report: document.report, spool: spool))
        }

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(codingPath: [], debugDescription: "a streamed document is written directly only")
            )
        }
    }
}

extension EnergyDocument.Streamed {
    /// ``PowerLogReport`` with its battery's rows from the spool.
    struct Report: JSONDirectEncodable {
        var report: PowerLogReport
        let spool: PowerLogBatterySpool

        /// The members the synthesised `encode(to:)` of ``PowerLogReport`` writes, in key order.
        func writeJSONMembers(into object: inout JSONObjectWriter) {
            object.write("abridged", encoding: report.abridged)
            object.write("appRunTime", encoding: report.appRunTime)
            object.write("apps", encoding: report.apps)
            object.write("backgroundLocation", encoding: report.backgroundLocation)
            object.write("battery", report.battery.map { Battery(battery: $0, spool: spool) })
            object.write("coalitions", encoding: report.coalitions)
            object.write("device", report.device)
            object.write("energy", encoding: report.energy)
            object.write("loggingMode", report.loggingMode)
            object.write("osBuild", report.osBuild)
            object.write("processExits", encoding: report.processExits)
            object.write("screen", encoding: report.screen)
            object.write("sources", encoding: report.sources)
            object.write("storageVersion", report.storageVersion)
            object.write("tables", encoding: report.tables)
            object.write("timeOffsets", encoding: report.timeOffsets)
            object.write("timeRange", encoding: report.timeRange)
            object.write("timeZone", report.timeZone)
        }

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(codingPath: [], debugDescription: "a streamed report is written directly only")
            )
        }
    }

    /// ``PowerLogReport/Battery`` with its samples and sessions from the spool.
    struct Battery: JSONDirectEncodable {
        var battery: PowerLogReport.Battery
        let spool: PowerLogBatterySpool

        /// The members the synthesised `encode(to:)` of ``PowerLogReport/Battery`` writes, in key order.
        func writeJSONMembers(into object: inout JSONObjectWriter) {
            object.write("cycleCount", battery.cycleCount)
            object.write("designCapacityMAh", battery.designCapacityMAh)
            object.write("drain", encoding: battery.drain)
            object.write("maxCapacityMAh", battery.maxCapacityMAh)
            object.write("samples", spool: spool.samples)
            object.write("sessions", spool: spool.sessions)
            object.write("source", battery.source)
        }

        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(codingPath: [], debugDescription: "a streamed battery is written directly only")
            )
        }
    }
}
