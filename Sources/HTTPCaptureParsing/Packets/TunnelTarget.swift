/// The host and port a CONNECT request asks the proxy to reach.
///
/// Read from the request target (authority form, `host:port` or `[v6]:port`), else from the Host header; the
/// port defaults to 443 because CONNECT is nearly always for TLS.
struct TunnelTarget: Equatable {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init(authority: String, hostHeader: String) {
        let text = authority.isEmpty || authority.hasPrefix("/") ? hostHeader : authority
        var host = text
        var port = 443
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":"), let value = Int(rest.dropFirst()), (1...65535).contains(value) { port = value }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            if let value = Int(text[text.index(after: colon)...]), (1...65535).contains(value) { port = value }
        }
        self.host = host.lowercased()
        self.port = port
    }
}
