import APMInspectCore
import ByteAccess
import FuzzReplaySupport
import Testing

@testable import HTTPCaptureParsing

/// Issue 42, class 2: start lines that other readers take and apm-inspect used to drop or misread: methods outside
/// a fixed list, request lines without a target or a version (HTTP/0.9), status lines in lower case, raw deflate
/// bodies, and the URLs of `OPTIONS *` and `CONNECT host:port`.
@Suite struct HTTP1StartLineFidelityTests {
    /// One connection: the client's and the server's bytes in turn, then the server closes.
    private static func capture(
        _ exchanges: [(request: String, response: [UInt8])],
        server: (ip: [UInt8], port: Int) = (GeneratedCaptures.apiV4, 80),
        serverCloses: Bool = true
    ) throws -> HTTPCaptureReader.Result {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 51_200), server: server)
        tcp.handshake(syn: 0, synAck: 4, ack: 5)
        var time = 6.0
        for exchange in exchanges {
            tcp.send(time, fromClient: true, Array(exchange.request.utf8))
            if !exchange.response.isEmpty { tcp.send(time + 20, fromClient: false, exchange.response) }
            time += 40
        }
        if serverCloses { tcp.fin(time, fromClient: false) }
        return try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1))
    }

    private static func codes(_ result: HTTPCaptureReader.Result) -> [String] {
        result.diagnostics.map(\.code.rawValue)
    }

    // MARK: - (a) any token is a method

    /// WebDAV and a vendor method on one keep-alive connection (a NAS's file sync, an SAP Cloud Connector check).
    @Test func methodsOutsideTheRFC9110ListAreRequests() throws {
        let multiStatus = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<d:multistatus xmlns:d=\"DAV:\"/>\n"
        let result = try Self.capture([
            (
                "PROPFIND /remote.php/dav/files/anna/ HTTP/1.1\r\nHost: cloud.example.net\r\nDepth: 1\r\n"
                    + "Content-Length: 0\r\n\r\n",
                Array(
                    ("HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml; charset=utf-8\r\n"
                        + "Content-Length: \(multiStatus.utf8.count)\r\n\r\n" + multiStatus).utf8
                )
            ),
            (
                "MKCOL /remote.php/dav/files/anna/Reports%202024/ HTTP/1.1\r\nHost: cloud.example.net\r\n\r\n",
                Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".utf8)
            ),
            (
                "CCM_POST /sap/scc/ping HTTP/1.1\r\nHost: cloud.example.net\r\nContent-Length: 2\r\n\r\n{}",
                Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)
            ),
        ])
        let t = result.capture.transactions
        #expect(t.map(\.method) == ["PROPFIND", "MKCOL", "CCM_POST"])
        #expect(
            t.map(\.url) == [
                "http://cloud.example.net/remote.php/dav/files/anna/",
                "http://cloud.example.net/remote.php/dav/files/anna/Reports%202024/",
                "http://cloud.example.net/sap/scc/ping",
            ]
        )
        #expect(t.map(\.status) == [207, 201, 204])
        #expect(t.first?.sizes.responseBody == Int64(multiStatus.utf8.count))
        #expect(t.last?.sizes.requestBody == 2)
        #expect(result.capture.packets?.connections.first?.application == "http/1.x")
    }

    @Test(arguments: [
        ("PROPFIND /dav/ HTTP/1.1\r\n", true),
        ("CCM_POST /x HTTP/1.1\r\n", true),
        ("M-SEARCH * HTTP/1.1\r\n", true),
        ("get /lower HTTP/1.1\r\n", true),
        ("X.MY~METHOD! /x HTTP/1.0\r\n", true),
        ("GE{T /x HTTP/1.1\r\n", false),
        ("VERY-LONG-METHOD-NAME-X /x HTTP/1.1\r\n", false),
        ("EHLO mail.example.com\r\n", false),
        ("SSH-2.0-OpenSSH_9.6\r\n", false),
        ("SET session:42 active\r\n", false),
        ("PROPFIND /dav/ SPDY/3\r\n", false),
    ])
    func requestLineRecognition(line: String, isRequest: Bool) {
        let bytes = Array(line.utf8)
        #expect(HTTP1Message.looksLikeRequest(bytes) == isRequest)
        #expect(bytes.withBorrowedBytes { HTTP1Message.looksLikeRequestByCharacters($0) } == isRequest)
    }

    /// After a hole the next request line is found by its version: a token method after a JSON body is whole.
    @Test func resynchronisingKeepsATokenMethodWhole() {
        let before = Array("POST /events HTTP/1.1\r\nContent-Length: 14\r\n\r\n{\"n\"".utf8)
        let after = Array(":1}\r\n{\"n\":2}CCM_POST /sap/scc/ping HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        let messages = HTTP1Message.parseAll(
            before + after,
            isResponse: false,
            gaps: [TCPStream.Gap(at: before.count, length: 30)],
            maxDecoded: 1 << 20
        )
        #expect(messages.map(\.method) == ["POST", "CCM_POST"])
        #expect(messages.last?.afterHole == true)
    }

    // MARK: - (b) request lines without a version or a target

    /// A monitoring probe speaking HTTP/0.9: one line, no headers; the server answers with the document alone and
    /// closes.
    @Test func versionlessRequestIsHTTP09AndItsResponseRunsToTheClose() throws {
        let page = Array("<html><body>up</body></html>\n".utf8)
        let result = try Self.capture([("GET /status.html\r\n", page)])
        let t = try #require(result.capture.transactions.first)
        #expect(result.capture.transactions.count == 1)
        #expect(t.method == "GET")
        #expect(t.url == "http://93.184.216.34/status.html")
        #expect(t.httpVersion == "HTTP/0.9")
        #expect(t.status == nil)
        #expect(t.statusText == "")
        #expect(t.sizes.responseHeaders == 0)
        #expect(t.sizes.responseBody == Int64(page.count))
        #expect(t.sizes.decoded == Int64(page.count))
        #expect(t.sizes.requestHeaders == 18)
        #expect(t.outcome == .unknown)
        #expect(t.durations.wait == 20)
        #expect(Self.codes(result) == ["pcap.versionless-request"])
    }

    /// A server that answers a version-less line with a status line anyway is read as it wrote it.
    @Test func versionlessRequestAnsweredWithAStatusLine() throws {
        let result = try Self.capture([
            ("GET /\n", Array("HTTP/1.0 400 Bad Request\r\nContent-Length: 11\r\n\r\nbad request".utf8))
        ])
        let t = try #require(result.capture.transactions.first)
        #expect(t.httpVersion == "HTTP/0.9")
        #expect(t.status == 400)
        #expect(t.statusText == "Bad Request")
        #expect(t.sizes.responseBody == 11)
        #expect(Self.codes(result) == ["pcap.versionless-request"])
    }

    @Test func requestLineWithoutATargetIsRead() throws {
        let result = try Self.capture([
            (
                "GET HTTP/1.1\r\nHost: legacy.example.org\r\nUser-Agent: probe/1.0\r\n\r\n",
                Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            )
        ])
        let t = try #require(result.capture.transactions.first)
        #expect(t.method == "GET")
        #expect(t.url == "http://legacy.example.org")
        #expect(t.host == "legacy.example.org")
        #expect(t.httpVersion == "HTTP/1.1")
        #expect(t.status == 400)
        #expect(HTTPTransaction.headerValue("User-Agent", in: t.requestHeaders) == "probe/1.0")
        #expect(Self.codes(result) == ["pcap.request-without-target"])
    }

    @Test func startLinePiecesWithoutATarget() {
        let line = HTTP1StartLine("GET HTTP/1.1")
        #expect(line.method == "GET")
        #expect(line.target == "")
        #expect(line.version == "HTTP/1.1")
        #expect(HTTP1StartLine(byCharacters: "GET HTTP/1.1") == line)
        let simple = HTTP1StartLine("GET /index.html")
        #expect(simple.target == "/index.html")
        #expect(simple.version == "")
    }

    // MARK: - (c) status lines in lower case

    @Test func lowerCaseStatusLineIsAResponse() throws {
        let result = try Self.capture([
            (
                "GET /health HTTP/1.1\r\nHost: iot-gw.local\r\n\r\n",
                Array("http/1.1 200 ok\r\ncontent-length: 2\r\n\r\nup".utf8)
            )
        ])
        let t = try #require(result.capture.transactions.first)
        #expect(t.status == 200)
        #expect(t.statusText == "ok")
        #expect(t.sizes.responseBody == 2)
        #expect(t.outcome == .success)
        #expect(Self.codes(result).isEmpty)
        let line = HTTP1StartLine("Http/1.0 404 not found")
        #expect(line.status == 404)
        #expect(line.version == "Http/1.0")
        #expect(line.reason == "not found")
    }

    /// Only the server side captured, in lower case: still HTTP.
    @Test func lowerCaseResponsesWithoutRequests() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 51_300), server: (GeneratedCaptures.apiV4, 80))
        tcp.send(10, fromClient: false, Array("http/1.0 503 service unavailable\r\ncontent-length: 0\r\n\r\n".utf8))
        let result = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1))
        #expect(result.capture.transactions.map(\.status) == [503])
    }

    // MARK: - (d) raw deflate

    @Test(arguments: [false, true])
    func deflateBodyWithOrWithoutTheZlibHeader(raw: Bool) throws {
        let json = Array(
            String(repeating: "{\"sku\":\"A-1042\",\"price\":19.99,\"currency\":\"EUR\"},", count: 40).utf8
        )
        let body = Compressing.deflate(json, gzip: false, raw: raw)
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: deflate\r\n"
        let result = try Self.capture([
            (
                "GET /api/catalog HTTP/1.1\r\nHost: shop.example.com\r\nAccept-Encoding: deflate\r\n\r\n",
                Array((head + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
            )
        ])
        let t = try #require(result.capture.transactions.first)
        #expect(t.sizes.responseBody == Int64(body.count))
        #expect(t.sizes.decoded == Int64(json.count))
    }

    @Test func httpDeflateTriesZlibThenRaw() throws {
        let text = Array("raw deflate, as some servers send it".utf8)
        let zlib = try Inflate.decompressHTTPDeflate(Compressing.deflate(text, gzip: false))
        #expect(zlib.result.bytes == text)
        #expect(!zlib.raw)
        let raw = try Inflate.decompressHTTPDeflate(Compressing.deflate(text, gzip: false, raw: true))
        #expect(raw.result.bytes == text)
        #expect(raw.raw)
        #expect(throws: InputError.self) { try Inflate.decompressHTTPDeflate([0xFF, 0xFF, 0xFF, 0xFF]) }
    }

    // MARK: - (e) asterisk form and authority form

    @Test func optionsAsteriskIsTheOrigin() throws {
        let result = try Self.capture(
            [
                (
                    "OPTIONS * HTTP/1.1\r\nHost: media.example.com:8080\r\n\r\n",
                    Array("HTTP/1.1 200 OK\r\nAllow: GET, HEAD, OPTIONS\r\nContent-Length: 0\r\n\r\n".utf8)
                )
            ],
            server: (GeneratedCaptures.apiV4, 8080)
        )
        let t = try #require(result.capture.transactions.first)
        #expect(t.method == "OPTIONS")
        #expect(t.url == "http://media.example.com:8080")
        #expect(t.host == "media.example.com")
        #expect(t.status == 200)
        #expect(Self.codes(result).isEmpty)
    }

    @Test func connectURLIsTheAuthority() throws {
        let result = try Self.capture(
            [
                (
                    "CONNECT api.example.com:443 HTTP/1.1\r\nHost: api.example.com:443\r\n"
                        + "Proxy-Connection: keep-alive\r\n\r\n",
                    Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".utf8)
                ),
                (
                    "CONNECT [2001:db8::7]:8443 HTTP/1.1\r\nHost: [2001:db8::7]:8443\r\n\r\n",
                    Array("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n".utf8)
                ),
            ],
            server: ([10, 0, 0, 9], 3128)
        )
        let t = result.capture.transactions
        #expect(t.map(\.url) == ["api.example.com:443", "[2001:db8::7]:8443"])
        #expect(t.map(\.host) == ["api.example.com", "2001:db8::7"])
        #expect(t.map(\.proxyConnection) == [true, true])
        #expect(t.map(\.remotePort) == [3128, 3128])
        #expect(t.map(\.status) == [403, 407])
    }
}
