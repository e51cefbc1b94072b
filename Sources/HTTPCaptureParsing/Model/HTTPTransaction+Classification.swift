import ByteAccess

extension HTTPTransaction {
    /// Normalises a protocol name: `HTTP/2.0`, `http/2`, `h2` → `h2`; `HTTP/3`, `h3-29` → `h3`; `spdy/3.1` → `spdy`;
    /// empty → `unknown`.
    package static func normalisedProtocol(_ raw: String) -> String {
        let text = raw.lowercased().trimmingSpaces
        if text.isEmpty { return "unknown" }
        if text == "h2" || text == "h2c" || text.hasPrefix("http/2") { return "h2" }
        if text.hasPrefix("spdy/") { return "spdy" }
        if text == "h3" || text.hasPrefix("h3-") || text.hasPrefix("http/3") || text == "quic" { return "h3" }
        if text == "http/1.1" { return "http/1.1" }
        if text == "http/1.0" || text == "http/0.9" { return "http/1.0" }
        if text.hasPrefix("http/1") { return "http/1.1" }
        if text == "tls" { return "tls" }
        return "unknown"
    }

    /// The outcome from a status, an error text and whether a response exists (reference §7).
    package static func outcome(status: Int?, error: String?, hasResponse: Bool) -> Outcome {
        if let error, !error.isEmpty { return .networkError }
        guard hasResponse else { return .networkError }
        guard let status else { return .unknown }
        switch status {
        case ..<1: return .networkError
        case 100..<400: return .success
        case 400..<500: return .clientError
        case 500...: return .serverError
        default: return .unknown
        }
    }

    /// The traffic type from a MIME type, a vendor resource type and the method.
    package static func trafficType(mimeType: String, resourceType: String? = nil, method: String = "GET")
        -> TrafficType
    {
        var mimeType = mimeType
        switch mimeType.withBorrowedUTF8({ mimeVerdict($0, method: method) }) {
        case .decided(let type): return type
        case .undecided: return trafficType(resourceType: resourceType, method: method)
        case .notASCII: return trafficTypeByCharacters(mimeType: mimeType, resourceType: resourceType, method: method)
        }
    }

    /// ``trafficType(mimeType:resourceType:method:)`` read by `Character`: the reference the byte path is held to,
    /// and the path taken for MIME types that are not plain ASCII.
    static func trafficTypeByCharacters(mimeType: String, resourceType: String?, method: String) -> TrafficType {
        let mime = mimeType.lowercased()
        let essence = mime.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpaces } ?? ""
        if essence == "text/html" || essence == "application/xhtml+xml" || essence == "text/css"
            || essence.contains(ascii: "javascript") || essence == "text/ecmascript" || essence == "application/wasm"
        {
            return .web
        }
        if essence.hasPrefix("image/") || essence.hasPrefix("video/") || essence.hasPrefix("audio/")
            || essence.hasPrefix("font/") || essence.contains(ascii: "font-woff")
            || essence == "application/vnd.apple.mpegurl" || essence == "application/x-mpegurl"
            || essence == "application/dash+xml"
        {
            return .resource
        }
        if essence.contains(ascii: "json") || essence.hasSuffix("xml") || essence.contains(ascii: "protobuf")
            || essence.contains(ascii: "grpc") || essence == "application/x-www-form-urlencoded"
            || essence == "multipart/form-data" || essence == "text/plain" && method != "GET"
        {
            return .api
        }
        return trafficType(resourceType: resourceType, method: method)
    }

    /// The traffic type when the MIME type says nothing: the vendor's resource type, then the method.
    private static func trafficType(resourceType: String?, method: String) -> TrafficType {
        switch resourceType?.lowercased() {
        case "document", "stylesheet", "script": return .web
        case "image", "media", "font": return .resource
        case "xhr", "fetch", "eventsource", "websocket": return .api
        default: break
        }
        if method != "GET" && method != "HEAD" && !method.isEmpty && method != "CONNECT" { return .api }
        return .other
    }

    /// The scheme, host and port of an absolute URL (`https://[::1]:8443/x` → `https`, `::1`, 8443).
    package static func urlParts(_ url: String) -> (scheme: String, host: String, port: Int?) {
        var url = url
        if let parts = url.withBorrowedUTF8(asciiURLParts) { return parts }
        return urlPartsByCharacters(url)
    }

    /// ``urlParts(_:)`` found by `Character`: the reference the byte path is held to, and the path for URLs that
    /// are not plain ASCII.
    static func urlPartsByCharacters(_ url: String) -> (scheme: String, host: String, port: Int?) {
        guard let schemeEnd = url.range(of: "://") else { return ("", "", nil) }
        let scheme = url[url.startIndex..<schemeEnd.lowerBound].lowercased()
        var rest = url[schemeEnd.upperBound...]
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = Substring(rest)
        var port: Int?
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") {
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") { port = Int(after.dropFirst()) }
                host = host[host.index(after: host.startIndex)..<close]
            }
        } else if let colon = host.lastIndex(of: ":") {
            port = Int(host[host.index(after: colon)...])
            host = host[..<colon]
        }
        return (scheme, host.lowercased(), port)
    }

    /// ``urlParts(_:)`` of an all-ASCII URL, nearly every one, found byte by byte; nil for any other URL.
    ///
    /// The same answer as the search by characters: no ASCII character joins the next into one but CR LF, which
    /// holds none of the bytes looked for. Foundation's `range(of:)` and the character walks took a tenth of a
    /// HAR summary's CPU (perf, 200 MB HAR).
    static func asciiURLParts(_ url: BorrowedBytes) -> (scheme: String, host: String, port: Int?)? {
        let count = url.count
        var index = 0
        while index < count {
            if url[unchecked: index] >= 0x80 { return nil }
            index += 1
        }
        var schemeEnd = -1
        var at = 0
        while at + 3 <= count {
            if url[unchecked: at] == UInt8(ascii: ":") && url[unchecked: at + 1] == UInt8(ascii: "/")
                && url[unchecked: at + 2] == UInt8(ascii: "/")
            {
                schemeEnd = at
                break
            }
            at += 1
        }
        guard schemeEnd >= 0 else { return ("", "", nil) }
        func text(_ range: Range<Int>, lowercased: Bool = false) -> String {
            let slice = url.slice(range)
            guard lowercased else { return slice.string }
            // Into the string's own storage: decoding a lazy map went byte by byte through the generic path and
            // cost a third of the URL split.
            return String(utf8Capacity: slice.count) { out in
                for k in 0..<slice.count {
                    let byte = slice[unchecked: k]
                    out.append(byte &- 0x41 < 26 ? byte | 0x20 : byte)
                }
            }
        }
        var start = schemeEnd + 3
        var end = start
        while end < count, url[unchecked: end] != UInt8(ascii: "/"), url[unchecked: end] != UInt8(ascii: "?"),
            url[unchecked: end] != UInt8(ascii: "#")
        {
            end += 1
        }
        var position = end
        while position > start {
            position -= 1
            if url[unchecked: position] == UInt8(ascii: "@") {
                start = position + 1
                break
            }
        }
        var hostRange = start..<end
        var port: Int?
        if start < end, url[unchecked: start] == UInt8(ascii: "[") {
            if let close = (start..<end).first(where: { url[unchecked: $0] == UInt8(ascii: "]") }) {
                if close + 1 < end, url[unchecked: close + 1] == UInt8(ascii: ":") { port = Int(text(close + 2..<end)) }
                hostRange = start + 1..<close
            }
        } else if let colon = (start..<end).last(where: { url[unchecked: $0] == UInt8(ascii: ":") }) {
            port = Int(text(colon + 1..<end))
            hostRange = start..<colon
        }
        return (text(0..<schemeEnd, lowercased: true), text(hostRange, lowercased: true), port)
    }

    /// True for header names whose values hold secrets.
    package static func isSecretHeader(_ name: String) -> Bool {
        switch name.lowercased() {
        case "authorization", "cookie", "set-cookie", "proxy-authorization", "x-api-key": true
        default: false
        }
    }

    /// The value of the first header named `name` (case-insensitive).
    package static func headerValue(_ name: String, in headers: [Header]) -> String? {
        var lower: String?
        for header in headers {
            // ASCII names compare without a lowercased copy of each; another name takes `lowercased()`, whose
            // answer can differ (the Kelvin sign lowercases to `k`).
            if let same = asciiCaseInsensitiveEquals(header.name, name) {
                if same { return header.value }
                continue
            }
            if lower == nil { lower = name.lowercased() }
            if header.name.lowercased() == lower { return header.value }
        }
        return nil
    }

    /// Whether two ASCII strings are equal ignoring ASCII case; nil when either is not plain ASCII.
    private static func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool? {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                var equal = x.count == y.count
                for byte in x where byte >= 0x80 { return nil }
                for byte in y where byte >= 0x80 { return nil }
                if equal {
                    for k in 0..<x.count
                    where x[k] | (x[k] &- 0x41 < 26 ? 0x20 : 0) != y[k] | (y[k] &- 0x41 < 26 ? 0x20 : 0) {
                        equal = false
                        break
                    }
                }
                return equal
            }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF.
    ///
    /// Read on bytes when the string is ASCII without CR, where each of those bytes is a `Character` of its own
    /// (a CR before an LF is one `Character`, CR LF, which is not trimmed); other strings take the `Character` walk
    /// (``trimmingSpacesByCharacters``). Header names and values of a pcap are trimmed by the thousand.
    var trimmingSpaces: String {
        var text = self
        let trimmed: String? = text.withBorrowedUTF8 { bytes -> String? in
            for k in 0..<bytes.count {
                let byte = bytes[unchecked: k]
                if byte >= 0x80 || byte == UInt8(ascii: "\r") { return nil }
            }
            func isSpace(_ byte: UInt8) -> Bool {
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            }
            var lower = 0
            var upper = bytes.count
            while lower < upper, isSpace(bytes[unchecked: lower]) { lower += 1 }
            while upper > lower, isSpace(bytes[unchecked: upper - 1]) { upper -= 1 }
            if lower == 0 && upper == bytes.count { return self }
            return bytes.slice(lower..<upper).string
        }
        if let trimmed { return trimmed }
        return trimmingSpacesByCharacters
    }

    /// ``trimmingSpaces`` by `Character`.
    var trimmingSpacesByCharacters: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

extension HTTPTransaction {
    /// Rounds every phase mark and duration to the microsecond, so sums of binary fractions print as written.
    mutating func roundTimes() {
        func r(_ value: Double) -> Double { value < 0 ? value : (value * 1000).rounded() / 1000 }
        phases = Phases(
            fetchStart: r(phases.fetchStart),
            domainLookupStart: r(phases.domainLookupStart),
            domainLookupEnd: r(phases.domainLookupEnd),
            connectStart: r(phases.connectStart),
            connectEnd: r(phases.connectEnd),
            secureConnectionStart: r(phases.secureConnectionStart),
            secureConnectionEnd: r(phases.secureConnectionEnd),
            requestStart: r(phases.requestStart),
            requestEnd: r(phases.requestEnd),
            responseStart: r(phases.responseStart),
            responseEnd: r(phases.responseEnd)
        )
        durations = Durations(
            blocked: r(durations.blocked),
            dns: r(durations.dns),
            connect: r(durations.connect),
            tls: r(durations.tls),
            send: r(durations.send),
            wait: r(durations.wait),
            receive: r(durations.receive),
            total: r(durations.total)
        )
    }
}
