import HTTPCaptureParsing

/// The packet-level part of an HTTP capture summary: container, DNS lookups, TCP connections, TLS handshakes.
package enum PacketRenderer {
    package static func fields(_ packets: PacketAnalysis) -> [(String, String)] {
        var fields: [(String, String)] = []
        var container = "\(Formatting.grouped(packets.packets)) packets, \(HTTPRenderer.bytes(packets.capturedBytes))"
        if packets.sections > 1 { container += ", \(packets.sections) sections" }
        if !packets.byteOrders.isEmpty { container += ", " + packets.byteOrders.joined(separator: " + ") }
        fields.append(("Packets", container))
        let links = packets.interfaces.map { "\($0.linkTypeName) (\($0.timestampResolution))" }
        if !links.isEmpty { fields.append(("Links", Array(Set(links)).sorted().joined(separator: ", "))) }
        fields.append(
            (
                "Transport",
                "IPv4 \(packets.ipv4), IPv6 \(packets.ipv6), TCP \(packets.tcp), UDP \(packets.udp); "
                    + "\(packets.connections.count) connections, \(packets.retransmissions) retransmissions, "
                    + "\(packets.resets) resets"
            )
        )
        if !packets.undecoded.isEmpty {
            let list = packets.undecoded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            fields.append(("Not decoded", list.joined(separator: ", ")))
        }
        if packets.truncatedPackets > 0 {
            fields.append(("Truncated", "\(packets.truncatedPackets) packets cut at the snap length"))
        }
        if !packets.dns.isEmpty {
            let failed = packets.dns.count { $0.failed }
            let times = packets.dns.map(\.responseMilliseconds).filter { $0 >= 0 }
            let stats = HTTPSummary.Percentiles(values: times)
            var text = "\(packets.dns.count) lookups, \(failed) failed"
            if stats.n > 0 { text += "; p50 \(HTTPRenderer.ms(stats.p50)), max \(HTTPRenderer.ms(stats.max))" }
            fields.append(("DNS", text))
        }
        return fields
    }

    package static func sections(_ packets: PacketAnalysis) -> String {
        var out = ""
        if !packets.dns.isEmpty {
            var table = TextTable(
                headers: ["NAME", "TYPE", "TIME", "RCODE", "ANSWERS", "VIA"],
                alignments: [.left, .left, .right, .left, .left, .left]
            )
            for lookup in packets.dns.prefix(30) {
                var answers = lookup.answers.filter { !$0.hasPrefix("CNAME") }.prefix(3).joined(separator: " ")
                if lookup.duplicateResponses > 0 { answers += " (+\(lookup.duplicateResponses) duplicate)" }
                table.append([
                    lookup.name, lookup.type, HTTPRenderer.ms(lookup.responseMilliseconds),
                    lookup.rcode.isEmpty ? "no answer" : lookup.rcode, answers, lookup.transport,
                ])
            }
            out += "\nDNS lookups\n" + table.render(indent: "  ")
            if packets.dns.count > 30 { out += "  … \(packets.dns.count - 30) more\n" }
        }
        if !packets.connections.isEmpty {
            var table = TextTable(
                headers: ["CLIENT", "SERVER", "APP", "SYN→SYN/ACK", "CONNECT", "TLS", "SNI / VERSION", "NOTE"],
                alignments: [.left, .left, .left, .right, .right, .right, .left, .left]
            )
            for connection in packets.connections.prefix(30) {
                var tls = "-"
                var sni = ""
                if let handshake = connection.tls {
                    tls = HTTPRenderer.ms(handshake.handshakeMilliseconds)
                    sni = [handshake.serverName, handshake.version ?? handshake.offeredVersions.first, handshake.alpn]
                        .compactMap { $0 }.joined(separator: " ")
                }
                var notes: [String] = []
                if !connection.handshakeSeen { notes.append("no SYN") }
                if connection.reset { notes.append("reset") }
                if connection.retransmissions > 0 { notes.append("\(connection.retransmissions) retrans") }
                if connection.missingBytes > 0 { notes.append("\(connection.missingBytes) B missing") }
                if let alert = connection.tls?.alert { notes.append(alert) }
                table.append([
                    connection.client, connection.server, connection.application,
                    HTTPRenderer.ms(connection.synAckMilliseconds), HTTPRenderer.ms(connection.connectMilliseconds),
                    tls, sni,
                    notes.joined(separator: ", "),
                ])
            }
            out += "\nTCP connections\n" + table.render(indent: "  ")
            if packets.connections.count > 30 { out += "  … \(packets.connections.count - 30) more\n" }
        }
        return out
    }
}
