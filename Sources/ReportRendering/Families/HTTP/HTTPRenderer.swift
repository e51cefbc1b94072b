import APMInspectCore
import HTTPCaptureParsing

/// The human summary of an HTTP capture: health figures, hosts, and a text waterfall of the slowest requests.
package enum HTTPRenderer {
    /// Width of the waterfall bars, in characters.
    package static let barWidth = 40

    package static func render(_ capture: HTTPCapture, file: String, title: String, detailed: Bool, slowest: Int = 10)
        -> String
    {
        let s = capture.summary
        var out = "\(title)  \(file)\n"
        var fields: [(String, String)] = []
        var source = sourceName(capture)
        if let compression = capture.compression { source += " (\(compression))" }
        fields.append(("Source", source))
        if let creator = capture.creator { fields.append(("Creator", creator)) }
        if let browser = capture.browser { fields.append(("Browser", browser)) }
        var requests = Formatting.grouped(s.requests)
        if s.encryptedConnections > 0 { requests += " with visible HTTP" }
        if s.spanMilliseconds >= 0 { requests += " over \(duration(s.spanMilliseconds))" }
        fields.append(("Requests", requests))
        if s.encryptedConnections > 0 {
            // Encrypted traffic shows connections and timings, never requests or statuses.
            var connections = "\(Formatting.grouped(s.encryptedConnections)) encrypted (TLS or QUIC, no HTTP visible)"
            if s.failedConnections > 0 { connections += ", \(Formatting.grouped(s.failedConnections)) failed" }
            fields.append(("Connections", connections))
        }
        var outcomes: [String] = ["\(Formatting.grouped(s.succeeded)) ok"]
        if s.clientErrors > 0 { outcomes.append("\(s.clientErrors) 4xx") }
        if s.serverErrors > 0 { outcomes.append("\(s.serverErrors) 5xx") }
        if s.networkErrors > 0 { outcomes.append("\(s.networkErrors) network errors") }
        if s.unknownOutcome > 0 { outcomes.append("\(s.unknownOutcome) unanswered") }
        if s.cached > 0 { outcomes.append("\(s.cached) from cache") }
        if s.requests > 0 || s.encryptedConnections == 0 {
            fields.append(("Outcomes", outcomes.joined(separator: ", ")))
        }
        fields.append(
            (
                "Error rates",
                "HTTP \(percent(s.httpErrorRate)), network \(percent(s.networkErrorRate)), cached \(percent(s.cachedShare))"
            )
        )
        if !s.protocols.isEmpty {
            let list = s.protocols.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            fields.append(("Protocols", list.map { "\($0.key) \($0.value)" }.joined(separator: ", ")))
        }
        let o = s.overall
        if o.total.n > 0 {
            fields.append(
                ("Total", "p50 \(ms(o.total.p50)), p90 \(ms(o.total.p90)), p99 \(ms(o.total.p99)) (n=\(o.total.n))")
            )
        }
        if o.ttfb.n > 0 {
            fields.append(
                ("TTFB", "p50 \(ms(o.ttfb.p50)), p90 \(ms(o.ttfb.p90)), p99 \(ms(o.ttfb.p99)) (n=\(o.ttfb.n))")
            )
        }
        if let packets = capture.packets { fields += PacketRenderer.fields(packets) }
        out += InspectionRenderer.keyValues(fields)
        out += hostsTable(s, limit: detailed ? 25 : 8)
        if detailed {
            out += typesTable(s)
            if let packets = capture.packets { out += PacketRenderer.sections(packets) }
        }
        out += waterfall(capture, limit: detailed ? slowest : Swift.min(slowest, 5))
        return out
    }

    package static func sourceName(_ capture: HTTPCapture) -> String {
        switch capture.source {
        case .har: "HAR \(capture.version ?? "(no version)")"
        case .charlesJSON: "Charles session (.chlsj)"
        case .charlesXML: "Charles session (.chlsx)"
        case .pcap: "pcap" + (capture.version.map { " \($0)" } ?? "")
        case .pcapng: "pcapng" + (capture.version.map { " \($0)" } ?? "")
        }
    }

    package static func hostsTable(_ s: HTTPSummary, limit: Int) -> String {
        guard !s.hosts.isEmpty else { return "" }
        var table = TextTable(
            headers: [
                "HOST", "REQ", "ERR", "NET", "BYTES", "TOTAL p50/p90/p99", "DNS p50", "CONNECT p50", "TLS p50",
                "TTFB p50",
            ],
            alignments: [.left, .right, .right, .right, .right, .right, .right, .right, .right, .right]
        )
        let connections = s.encryptedConnections > 0
        if connections {
            table.headers.insert("CONN", at: 2)
            table.alignments.insert(.right, at: 2)
        }
        for host in s.hosts.prefix(limit) {
            let p = host.phases
            var counts = [String(host.requests)]
            if connections { counts.append(String(host.encryptedConnections)) }
            table.append(
                [TerminalText.escaped(host.host)] + counts + [
                    String(host.httpErrors),
                    String(host.networkErrors),
                    host.transferKnown > 0 ? bytes(host.transferBytes) : "-",
                    p.total.n > 0 ? "\(ms(p.total.p50)) / \(ms(p.total.p90)) / \(ms(p.total.p99))" : "-",
                    median(p.dns), median(p.connect), median(p.tls), median(p.ttfb),
                ]
            )
        }
        let over = connections ? "requests and encrypted connections" : "requests"
        var out =
            "\nHosts (\(s.hosts.count); phase figures over the \(over) where the phase is known, n in brackets)\n"
        out += table.render(indent: "  ")
        if s.hosts.count > limit { out += "  … \(s.hosts.count - limit) more hosts\n" }
        return out
    }

    package static func typesTable(_ s: HTTPSummary) -> String {
        guard !s.byType.isEmpty else { return "" }
        var table = TextTable(
            headers: ["TYPE", "REQ", "TRANSFER", "DECODED"],
            alignments: [.left, .right, .right, .right]
        )
        let connections = s.encryptedConnections > 0
        if connections {
            table.headers.insert("CONN", at: 2)
            table.alignments.insert(.right, at: 2)
        }
        for share in s.byType {
            var counts = [String(share.requests)]
            if connections { counts.append(String(share.encryptedConnections)) }
            table.append(
                [share.type.rawValue] + counts + [bytes(share.transferBytes), bytes(share.decodedBytes)]
            )
        }
        return "\nTraffic by type\n" + table.render(indent: "  ")
    }

    /// The slowest requests as bars on a common time axis: `-` blocked, `d` DNS, `c` connect, `s` TLS, `>` send,
    /// `.` waiting for the first byte, `#` receiving.
    package static func waterfall(_ capture: HTTPCapture, limit: Int) -> String {
        let picked = capture.summary.slowest.prefix(limit).compactMap { index in
            capture.transactions.indices.contains(index) ? capture.transactions[index] : nil
        }
        guard !picked.isEmpty else { return "" }
        var starts = picked.map { $0.startEpochSeconds >= 0 ? $0.startEpochSeconds * 1000 : 0 }
        let longest = picked.map(\.durations.total).max() ?? 0
        var origin = starts.min() ?? 0
        var end = 0.0
        for (t, start) in zip(picked, starts) { end = Swift.max(end, start - origin + t.durations.total) }
        var axis = "0 … \(duration(end))"
        if end > 50 * longest {
            // Requests minutes or days apart: a common axis would shrink every bar to a dot.
            starts = starts.map { _ in 0 }
            origin = 0
            end = longest
            axis = "each bar from its own start, 0 … \(duration(end))"
        }
        let scale = end > 0 ? Double(barWidth) / end : 0
        let what = picked.contains { $0.provenance.encrypted } ? "requests and encrypted connections" : "requests"
        var out =
            "\nSlowest \(what) (\(axis); - blocked, d DNS, c connect, s TLS, > send, . wait, # receive, ? unknown)\n"
        for (t, start) in zip(picked, starts) {
            let bar = bar(t, offset: start - origin, scale: scale)
            let status = t.status.map { $0 == 0 ? "ERR" : String($0) } ?? (t.provenance.encrypted ? "ENC" : "---")
            let label = TerminalText.escaped(t.url.isEmpty ? t.host : t.url)
            let shown = label.count > 70 ? String(label.prefix(67)) + "..." : label
            let total = ms(t.durations.total)
            out += "  " + pad(status, 3) + " " + String(repeating: " ", count: Swift.max(0, 9 - total.count)) + total
            out += "  |" + bar + "|  " + (t.method.isEmpty ? "" : TerminalText.escaped(t.method) + " ") + shown + "\n"
        }
        return out
    }

    package static func bar(_ t: HTTPTransaction, offset: Double, scale: Double) -> String {
        var cells = [Character](repeating: " ", count: barWidth)
        let p = t.phases
        func paint(_ from: Double, _ to: Double, _ mark: Character) {
            guard from >= 0, to >= from else { return }
            // Hostile times put cells anywhere, NaN or far outside the bar: clamp both ends into it.
            let a = Int(saturating: ((offset + from) * scale).rounded(.down))
            let b = Swift.max(a &+ 1, Int(saturating: ((offset + to) * scale).rounded(.up)))
            let lower = Swift.min(Swift.max(0, a), barWidth)
            let upper = Swift.min(Swift.max(lower, b), barWidth)
            for i in lower..<upper { cells[i] = mark }
        }
        let total = t.durations.total
        // Time no phase accounts for: blocked when the request phases are known, unknown otherwise.
        paint(0, total, p.requestStart < 0 ? "?" : "-")
        paint(p.domainLookupStart, p.domainLookupEnd, "d")
        paint(p.connectStart, p.connectEnd, "c")
        paint(p.secureConnectionStart, p.secureConnectionEnd, "s")
        paint(p.requestStart, p.requestEnd, ">")
        paint(p.requestEnd >= 0 ? p.requestEnd : p.requestStart, p.responseStart, ".")
        paint(p.responseStart, p.responseEnd, "#")
        return String(cells)
    }

    package static func median(_ p: HTTPSummary.Percentiles) -> String { p.n > 0 ? "\(ms(p.p50)) (\(p.n))" : "-" }

    package static func ms(_ value: Double) -> String {
        guard value >= 0 else { return "-" }
        if value >= 10_000 { return Formatting.oneDecimal(value / 1000) + " s" }
        if value >= 100 { return Formatting.grouped(Int64(saturating: value.rounded())) + " ms" }
        return Formatting.oneDecimal(value) + " ms"
    }

    package static func duration(_ value: Double) -> String {
        if value >= 172_800_000 { return Formatting.oneDecimal(value / 86_400_000) + " days" }
        if value >= 7_200_000 { return Formatting.oneDecimal(value / 3_600_000) + " h" }
        if value >= 120_000 { return Formatting.oneDecimal(value / 60_000) + " min" }
        return value >= 1000 ? Formatting.oneDecimal(value / 1000) + " s" : ms(value)
    }

    package static func percent(_ rate: Double) -> String { Formatting.oneDecimal(rate * 100) + " %" }

    package static func bytes(_ value: Int64) -> String {
        if value >= 1_048_576 { return Formatting.oneDecimal(Double(value) / 1_048_576) + " MB" }
        if value >= 1024 { return Formatting.oneDecimal(Double(value) / 1024) + " KB" }
        return "\(value) B"
    }

    package static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: Swift.max(0, width - text.count))
    }
}
