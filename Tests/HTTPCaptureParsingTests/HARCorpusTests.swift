import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// The HAR files in Corpus/http, one per exporter family, with the figures documented in Corpus/http/README.md.
@Suite struct HARCorpusTests {
    @Test func chromeNestsSSLInsideConnectAndSortsByStart() throws {
        let result = try Corpus.read("chrome_h2_ssl-inside-connect.har")
        let capture = result.capture
        #expect(capture.fileKind == .httpArchive)
        #expect(capture.creator == "WebInspector 537.36")
        #expect(capture.pages.count == 1)
        #expect(capture.transactions.map(\.url.count).count == 6)
        // File order is E1, E3, E2 …; sorted by startedDateTime app.js comes second.
        #expect(
            capture.transactions.map(\.url).prefix(3) == [
                "https://www.example.com/", "https://www.example.com/app.js", "https://api.example.com/v1/feed",
            ]
        )
        let document = try #require(capture.transactions.first)
        #expect(document.provenance.sslIncludedInConnect == true)
        #expect(!document.provenance.connectIncludesDNS)
        #expect(document.provenance.measured.contains("tls"))
        #expect(document.durations.connect == 25)
        #expect(document.durations.tls == 35)
        #expect(document.durations.dns == 12)
        #expect(document.durations.total == 160)
        #expect(document.phases.domainLookupStart == 2.5)
        #expect(document.phases.connectStart == 14.5)
        #expect(document.phases.secureConnectionStart == 39.5)
        #expect(document.phases.connectEnd == 74.5)
        #expect(document.phases.responseStart == 155)
        #expect(document.phases.responseEnd == 160)
        #expect(document.networkProtocol == "h2")
        #expect(document.trafficType == .web)
        #expect(document.remoteAddress == "2001:db8::10")
        #expect(document.sizes.transfer == 5400)
        #expect(document.sizes.decoded == 21000)
        #expect(document.extensions["_initiator"] != nil)
        #expect(document.extensions["_connectionId"] == .string("159834"))
        #expect(document.extensions["timings._blocked_queueing"] == .number("1.5"))
        #expect(HTTPTransaction.headerValue("cookie", in: document.requestHeaders) == "[redacted]")
        let script = capture.transactions[1]
        #expect(script.reusedConnection == true)
        #expect(script.durations.connect == -1)
        #expect(script.phases.connectStart == -1)
        #expect(script.provenance.unknown.contains("connect"))
    }

    @Test func chromeHealthFigures() throws {
        let summary = try Corpus.read("chrome_h2_ssl-inside-connect.har").capture.summary
        #expect(summary.requests == 6)
        #expect(summary.cached == 1)
        #expect(summary.succeeded == 2)
        #expect(summary.clientErrors == 1)
        #expect(summary.serverErrors == 1)
        #expect(summary.networkErrors == 1)
        #expect(summary.httpErrorRate == 0.5)
        #expect(summary.networkErrorRate == 0.2)
        #expect(close(summary.cachedShare, 1.0 / 6.0))
        let api = try #require(summary.hosts.first { $0.host == "api.example.com" })
        #expect(api.requests == 3)
        #expect(api.httpErrors == 2)
        #expect(api.networkErrors == 1)
        #expect(api.phases.dns.n == 1)
        #expect(api.phases.dns.p50 == 20)
        #expect(api.phases.total.n == 3)
        #expect(api.phases.total.p50 == 121)
        #expect(api.phases.total.p99 == 412)
        // The cached image is not among the slowest; the 503 is the slowest.
        #expect(summary.slowest.first == 2)
        #expect(!summary.slowest.contains(3))
        #expect(summary.protocols["h2"] == 5)
    }

    @Test func failedRequestIsANetworkError() throws {
        let capture = try Corpus.read("chrome_h2_ssl-inside-connect.har").capture
        let failed = try #require(capture.transactions.first { $0.method == "POST" })
        #expect(failed.status == 0)
        #expect(failed.error == "net::ERR_INTERNET_DISCONNECTED")
        #expect(failed.outcome == .networkError)
        #expect(failed.reusedConnection == nil)
        #expect(failed.sizes.requestBody == 7)
    }

    @Test func compressedCopiesReadTheSame() throws {
        let plain = try Corpus.read("chrome_h2_ssl-inside-connect.har").capture
        let zlib = try Corpus.read("chrome_h2_ssl-inside-connect.zhar").capture
        let gzip = try Corpus.read("chrome_h2_ssl-inside-connect.har.gz").capture
        #expect(zlib.compression == "zlib")
        #expect(gzip.compression == "gzip")
        #expect(zlib.transactions == plain.transactions)
        #expect(gzip.transactions == plain.transactions)
        #expect(HTTPCaptureReader.recognise(try Corpus.bytes("chrome_h2_ssl-inside-connect.zhar")) == .httpArchive)
        #expect(HTTPCaptureReader.recognise(try Corpus.bytes("chrome_h2_ssl-inside-connect.har.gz")) == .httpArchive)
    }

    @Test func mitmproxyShapeAddsSSLAfterConnectWhateverTheCreatorSays() throws {
        let capture = try Corpus.read("mitmproxy-shaped_ssl-after-connect_usec.har").capture
        #expect(capture.creator == "Firefox 111.0")
        let cart = capture.transactions[0]
        #expect(cart.provenance.sslIncludedInConnect == false)
        #expect(cart.provenance.connectIncludesDNS)
        #expect(cart.durations.connect == 45.5)
        #expect(cart.durations.tls == 60.25)
        #expect(cart.phases.secureConnectionStart == 45.5)
        #expect(cart.phases.secureConnectionEnd == 105.75)
        #expect(cart.durations.total == 210)
        #expect(cart.durations.dns == -1)
        #expect(cart.provenance.unknown.contains("dns"))
        #expect(close(cart.startEpochSeconds, 1_709_287_201.123456, 1e-6))
        let items = capture.transactions[1]
        #expect(items.startedDateTime == "2024-03-01T10:00:02+00:00")
        #expect(items.startEpochSeconds == 1_709_287_202)
        let failed = capture.transactions[2]
        #expect(failed.outcome == .networkError)
        #expect(failed.error?.hasPrefix("Connect call failed") == true)
        #expect(failed.sizes.decoded == -1)
        #expect(failed.mimeType.isEmpty)
    }

    @Test func safariTimeIsWallClockAndMemoryCacheIsCached() throws {
        let result = try Corpus.read("safari_bom_wall-clock_memory-cache.har")
        #expect(result.diagnostics.contains { $0.code == .byteOrderMark })
        #expect(result.diagnostics.contains { $0.code == .harMissingDate })
        let page = result.capture.transactions[0]
        #expect(page.provenance.timeIsWallClock)
        #expect(page.durations.total == 150)
        #expect(page.phases.responseEnd == 150)
        #expect(page.durations.tls == 30)
        #expect(page.remotePort == 443)
        let logo = result.capture.transactions[1]
        #expect(logo.fromCache)
        #expect(!logo.provenance.cacheInferred)
        #expect(logo.startEpochSeconds == -1)
        #expect(result.capture.summary.cached == 1)
    }

    @Test func firefoxCacheHitsAreInferredAndOffsetsApplied() throws {
        let capture = try Corpus.read("firefox_cache-hits_local-offset.har").capture
        #expect(capture.browser == "Firefox 124.0")
        // 02:00:20-08:00 is 10:00:20Z.
        #expect(capture.transactions[0].startEpochSeconds == 1_709_287_220)
        #expect(capture.transactions[0].provenance.sslIncludedInConnect == false)
        #expect(capture.transactions[0].durations.total == 173)
        let css = capture.transactions[1]
        #expect(css.fromCache && css.provenance.cacheInferred)
        #expect(css.durations.send == -1)
        let logo = capture.transactions[2]
        #expect(logo.fromCache && logo.provenance.cacheInferred)
        let revalidated = capture.transactions[3]
        #expect(!revalidated.fromCache)
        #expect(revalidated.status == 304)
        #expect(revalidated.outcome == .success)
        #expect(revalidated.durations.wait == 6)
        #expect(capture.summary.cached == 2)
        #expect(css.extensions["cache"] != nil)
    }

    @Test func legacyQuirksAreReadWithDiagnostics() throws {
        let result = try Corpus.read("legacy-1.1_array-headers_no-zone_bad-numbers.har")
        let capture = result.capture
        #expect(capture.version == "1.1")
        #expect(capture.creator == nil)
        // 09:00:09.5Z sorts before 10:00:10.1985333 (read as UTC).
        let ok = capture.transactions[0]
        #expect(ok.url == "http://legacy.example.net/ok")
        #expect(ok.startEpochSeconds == 1_709_283_609.5)
        #expect(ok.outcome == .networkError)
        #expect(ok.provenance.rejected == ["wait"])
        let status = capture.transactions[1]
        #expect(status.provenance.startTimeAssumedUTC)
        #expect(close(status.startEpochSeconds, 1_709_287_210.198_533_3, 1e-6))
        #expect(status.status == 200)
        #expect(status.durations.blocked == 3)
        #expect(status.durations.wait == -1)
        #expect(status.provenance.rejected == ["wait"])
        #expect(status.phases.responseStart == -1)
        #expect(status.durations.total == 30)
        #expect(status.sizes.transfer == 120)
        #expect(status.requestHeaders.count == 2)
        #expect(HTTPTransaction.headerValue("Cookie", in: status.requestHeaders) == "[redacted]")
        let codes = result.diagnostics.map(\.code)
        #expect(codes.contains(.harMissingCreator))
        #expect(codes.contains(.harBadTiming))
        #expect(codes.contains(.harMissingResponse))
        let badTimings = result.diagnostics.filter { $0.code == .harBadTiming }
        let location = try #require(
            badTimings.first { $0.location?.keyPath?.hasPrefix("log.entries[1]") == true }?.location
        )
        #expect(location.keyPath == "log.entries[1].timings.wait")
        #expect(location.line != nil)
    }

    @Test func truncatedHARKeepsTheCompleteEntries() throws {
        let result = try Corpus.read("truncated_mid-entry.har")
        #expect(result.capture.transactions.count == 2)
        #expect(result.diagnostics.contains { $0.code == .jsonTruncated })
        #expect(result.diagnostics.contains { $0.code == .harEntryEmpty })
    }

    @Test func secretsAreKeptOnlyWhenAsked() throws {
        var options = HTTPCaptureOptions()
        options.redactSecrets = false
        let capture = try Corpus.read("chrome_h2_ssl-inside-connect.har", options: options).capture
        #expect(HTTPTransaction.headerValue("cookie", in: capture.transactions[0].requestHeaders) == "session=abc123")
    }
}
