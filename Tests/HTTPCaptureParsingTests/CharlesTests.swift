import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

@Suite struct CharlesTests {
    @Test func chlsjPhasesFromAbsoluteTimes() throws {
        let result = try Corpus.read("charles_session.chlsj")
        let capture = result.capture
        #expect(capture.source == .charlesJSON)
        #expect(capture.fileKind == .charlesSession)
        #expect(capture.transactions.count == 3)
        let config = capture.transactions[0]
        #expect(config.url == "https://api.example.com/v2/config?app=ios&build=812")
        #expect(config.networkProtocol == "h2")
        #expect(config.reusedConnection == false)
        #expect(config.durations.dns == 10)
        #expect(config.durations.connect == 30)
        #expect(config.durations.tls == 55)
        #expect(config.provenance.sslIncludedInConnect == false)
        #expect(config.phases.domainLookupStart == 0)
        #expect(config.phases.secureConnectionEnd == 95)
        #expect(config.phases.requestStart == 95)
        #expect(config.durations.send == 1)
        #expect(config.durations.wait == 200)
        #expect(config.durations.receive == 14)
        #expect(config.durations.total == 310)
        #expect(config.tls?.version == "TLSv1.3")
        #expect(config.tls?.alpn == "h2")
        #expect(config.sizes.transfer == 1600)
        #expect(config.mimeType == "application/json; charset=utf-8")
        #expect(config.extensions["notes"] == .string("exported by Charles 4.6.6"))
        #expect(HTTPTransaction.headerValue("authorization", in: config.requestHeaders) == "[redacted]")
        let items = capture.transactions[1]
        #expect(items.reusedConnection == true)
        #expect(items.durations.dns == -1)
        #expect(items.durations.wait == 500)
        #expect(items.outcome == .serverError)
        let failed = capture.transactions[2]
        #expect(failed.outcome == .networkError)
        #expect(failed.error == "Connection reset by peer")
        #expect(failed.durations.dns == 12)
        #expect(failed.phases.requestStart == -1)
        #expect(capture.summary.networkErrorRate == 1.0 / 3.0)
    }

    @Test func chlsxReadThroughFoundationXML() throws {
        let capture = try Corpus.read("charles_session.chlsx").capture
        #expect(capture.source == .charlesXML)
        #expect(capture.transactions.count == 2)
        let upload = capture.transactions[0]
        #expect(upload.method == "POST")
        #expect(upload.url == "https://upload.example.org/v1/photos")
        #expect(upload.status == 201)
        #expect(upload.durations.dns == 15)
        #expect(upload.durations.connect == 40)
        #expect(upload.durations.tls == 65)
        #expect(upload.durations.send == 500)
        #expect(upload.durations.wait == 280)
        #expect(upload.durations.receive == 10)
        #expect(upload.durations.total == 910)
        #expect(upload.phases.requestStart == 120)
        #expect(upload.mimeType == "application/json; charset=utf-8")
        #expect(upload.extensions["charlesBuild"] == .string("4.6.6"))
        #expect(HTTPTransaction.headerValue("Authorization", in: upload.requestHeaders) == "[redacted]")
        #expect(HTTPTransaction.headerValue("Set-Cookie", in: upload.responseHeaders) == "[redacted]")
        let health = capture.transactions[1]
        #expect(health.url == "http://status.example.org/health?verbose=1")
        #expect(health.outcome == .clientError)
        #expect(health.reusedConnection == true)
        #expect(health.durations.wait == 80)
    }

    @Test func brokenXMLIsAClearError() {
        let text = "<?xml version=\"1.0\"?><charles-session><transaction host=\"a\"><request></charles-session>"
        #expect(HTTPCaptureReader.recognise(Array(text.utf8)) == .charlesSession)
        #expect {
            try HTTPCaptureReader().read(Array(text.utf8))
        } throws: { error in
            guard let error = error as? HTTPCaptureError else { return false }
            return error.code == .syntax && error.location?.line == 1
        }
    }

    @Test func xmlCutAfterATransactionKeepsIt() throws {
        let full = String(decoding: try Corpus.bytes("charles_session.chlsx"), as: UTF8.self)
        let cut = try #require(full.range(of: "<transaction status=\"COMPLETE\" method=\"GET\""))
        let result = try HTTPCaptureReader().read(Array(full[..<cut.upperBound].utf8))
        #expect(result.capture.transactions.count == 1)
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.code == .charlesBrokenXML })
    }

    /// Regression: FoundationXML trapped on an element name holding a byte that is not UTF-8 (found by fuzzing).
    @Test func invalidUTF8InANameIsCutNotATrap() throws {
        var bytes = try Corpus.bytes("charles_session.chlsx")
        let text = String(decoding: bytes, as: UTF8.self)
        let second = try #require(text.range(of: "<transaction status=\"COMPLETE\" method=\"GET\""))
        let offset = text.utf8.distance(from: text.startIndex, to: second.lowerBound) + 8
        bytes[offset] = 0xC0
        let result = try HTTPCaptureReader().read(bytes)
        #expect(result.capture.transactions.count == 1)
        #expect(
            result.diagnostics.contains { $0.code == .charlesNotUTF8 && $0.location?.byteOffset == offset }
        )
        #expect(CharlesXMLReader.firstInvalidUTF8(Array("héllo €𝄞".utf8)) == nil)
        #expect(CharlesXMLReader.firstInvalidUTF8([0x61, 0xED, 0xA0, 0x80]) == 1)
        #expect(CharlesXMLReader.firstInvalidUTF8([0xE2, 0x82]) == 0)
    }

    @Test func xmlWithoutCharlesRootIsWrongKind() {
        #expect {
            try CharlesXMLReader().read(Array("<?xml version=\"1.0\"?><plist><dict/></plist>".utf8))
        } throws: { error in
            (error as? HTTPCaptureError)?.code == .wrongKind
        }
    }
}
