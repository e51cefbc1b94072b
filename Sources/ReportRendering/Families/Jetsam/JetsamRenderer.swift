import APMInspectCore
import JetsamParsing

/// The human summary of a JetsamEvent: device, OS, time, memory, and who was killed and why.
package enum JetsamRenderer {
    package static func render(_ event: JetsamEvent, file: String) -> String {
        var out = "JetsamEvent\(event.isPartial ? " (partial)" : "")  \(file)\n"
        var fields: [(String, String)] = []
        fields.append(("Device", device(event)))
        if let ram = ramLine(event) { fields.append(("RAM", ram)) }
        var os = [event.osName, event.osVersion].compactMap { $0 }.joined(separator: " ")
        if let build = event.osBuild { os += " (\(build))" }
        if event.isBetaBuild { os += "  beta build" }
        if event.isModifiedKernel { os += "  modified kernel" }
        fields.append(("OS", os.isEmpty ? "unknown" : os))
        if let time = event.date ?? event.header?.timestamp { fields.append(("Time", time.iso8601)) }
        if let incident = event.incidentID { fields.append(("Incident", incident)) }
        if let pageSize = event.pageSize {
            fields.append(("Page size", "\(Formatting.grouped(pageSize)) bytes (from \(event.pageSizeSource ?? "?"))"))
        } else {
            fields.append(("Page size", "not in the report: byte figures not computed"))
        }
        if let largest = event.largestProcess { fields.append(("Largest", largest)) }
        let killed = event.killedProcesses
        fields.append(("Processes", "\(event.processes.count) listed, \(killed.count) killed"))
        out += InspectionRenderer.keyValues(fields)
        if !killed.isEmpty {
            out += "\nKilled processes\n"
            var table = TextTable(
                headers: ["NAME", "PID", "ROLE", "REASON", "FOOTPRINT", "LIMIT"],
                alignments: [.left, .right, .left, .left, .right, .left]
            )
            table.wholeColumns = [5]
            let ram = event.ram?.nominalMB
            for process in killed.sorted(by: killOrder) {
                var limit = ""
                if let mb = process.limitMB {
                    limit = "\(mb) MB"
                    if process.role == .foregroundApp, let ram, ram > 0 {
                        limit += " (\(Formatting.oneDecimal(Double(mb) / Double(ram) * 100)) % of RAM)"
                    }
                }
                table.append([
                    process.name ?? "?", process.pid.map(String.init) ?? "", roleName(process.role),
                    process.reason ?? "", process.footprintBytes.map(Formatting.megabytes) ?? "", limit,
                ])
            }
            out += table.render(indent: "  ")
            let reasons = Set(killed.compactMap(\.reason)).sorted()
            out += "\nReasons\n"
            let width = reasons.map(\.count).max() ?? 0
            for reason in reasons {
                let info = KillReason(reason)
                let count = killed.filter { $0.reason == reason }.count
                out += "  \(reason)\(String(repeating: " ", count: width - reason.count))  ×\(count)  \(info.meaning)\n"
            }
        }
        let unknownCount = event.processes.filter { $0.unknownKeys != nil }.count + (event.unknownKeys == nil ? 0 : 1)
        if unknownCount > 0 {
            out += "\nKept verbatim: keys this version does not model (see --format json, unknownKeys)\n"
        }
        return out
    }

    private static func killOrder(_ a: JetsamEvent.Process, _ b: JetsamEvent.Process) -> Bool {
        let rank: [ProcessRole: Int] = [.foregroundApp: 0, .backgroundApp: 1, .extension: 2, .daemon: 3]
        let ra = rank[a.role] ?? 4
        let rb = rank[b.role] ?? 4
        if ra != rb { return ra < rb }
        return (a.rpages ?? 0) > (b.rpages ?? 0)
    }

    package static func roleName(_ role: ProcessRole) -> String {
        switch role {
        case .foregroundApp: "foreground app"
        case .backgroundApp: "background app"
        case .extension: "extension"
        case .daemon: "daemon"
        }
    }

    private static func device(_ event: JetsamEvent) -> String {
        switch (event.deviceName, event.product) {
        case (let name?, let product?): "\(name) (\(product))"
        case (nil, let product?): "\(product) (not in the device catalog)"
        default: "unknown"
        }
    }

    private static func ramLine(_ event: JetsamEvent) -> String? {
        guard let ram = event.ram else { return nil }
        var parts: [String] = []
        if let nominal = ram.nominalMB {
            var text = Formatting.ram(nominal) + " installed"
            if ram.resolvedByEstimate, let options = ram.nominalOptionsMB {
                text += " (chosen among \(options.map(Formatting.ram).joined(separator: " / ")) by the estimate)"
            }
            parts.append(text)
        } else if let options = ram.nominalOptionsMB {
            parts.append(options.map(Formatting.ram).joined(separator: " or ") + " installed (depends on storage)")
        }
        if let estimate = ram.estimatedMB {
            parts.append("\(Formatting.grouped(Int(saturating: estimate.rounded()))) MB estimated from page counts")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
