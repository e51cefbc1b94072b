import Foundation
import FuzzReplaySupport
import Testing

@testable import APMInspectCore
@testable import HTTPCaptureParsing

/// Transactions write their JSON themselves (`JSONDirectEncodable`): what they write must be exactly what their
/// synthesised `encode(to:)` writes through the reference tree writer, in both layouts and at any depth.
@Suite struct TransactionJSONDirectTests {

    @Test func corpusTransactionsWriteAsTheirCodableForm() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Corpus.directory).sorted()
        var transactions = 0
        var withExtensions = 0
        for name in names where !name.hasSuffix(".md") {
            guard let result = try? Corpus.read(name) else { continue }
            let list = result.capture.transactions
            transactions += list.count
            withExtensions += list.filter { !$0.extensions.isEmpty }.count
            #expect(directEncodingMismatches(result.capture) == [], "\(name)")
            #expect(
                directEncodingMismatches(NestedHolder(single: list.first, list: list, nested: [list, []])) == [],
                "\(name) transactions"
            )
        }
        // The corpus must reach the paths under test: vendor fields, TLS, headers.
        #expect(transactions >= 40)
        #expect(withExtensions >= 5)
    }

    // MARK: - Random values

    /// Keys and text that sort and escape in the awkward ways: prefixes, upper before lower case, non-ASCII,
    /// decomposed accents, quotes, control characters.
    private static let texts = [
        "", "a", "ab", "B", "_initiator", "é", "e\u{301}", "\"quoted\"", "back\\slash", "tab\there", "line\nbreak",
        "\u{1}", "/path/", "日本", "💥", "size",
    ]

    /// Number texts as a HAR holds them, written back as integers, doubles, negative zero or kept text.
    private static let numbers = [
        "0", "-0", "-0.0", "1", "-17", "1.50", "3.0", "1e3", "2.5E-3", "-1e-400", "1e400", "12345678901234567890",
        "-9223372036854775808", "9223372036854775807", "123456789012345678901234567890", "0.1", "100.25",
    ]

    private func value(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch random.below(depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.chance())
        case 2: return .number(random.pick(Self.numbers))
        case 3: return .string(random.pick(Self.texts))
        case 4:
            return .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
        default:
            // Members in any order, keys repeated: the last of equal keys is the one written.
            return .object(
                (0..<random.below(5)).map { _ in
                    JSONValue.Member(key: random.pick(Self.texts), value: value(&random, depth: depth + 1))
                }
            )
        }
    }

    private func double(_ random: inout SeededGenerator) -> Double {
        random.pick([-1, 0, -0.0, 0.5, 12.345, 1e-7, 1e21, 123_456.789, .nan, .infinity, 3, 250.000_001])
    }

    private func optional<Value>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> Value) -> Value? {
        random.chance() ? make(&random) : nil
    }

    private func transaction(_ random: inout SeededGenerator) -> HTTPTransaction {
        let text = { (random: inout SeededGenerator) in random.pick(Self.texts) }
        var extensions: [String: JSONValue] = [:]
        for _ in 0..<random.below(4) { extensions[random.pick(Self.texts)] = value(&random, depth: 0) }
        return HTTPTransaction(
            index: random.below(100_000) - 1,
            method: text(&random),
            url: text(&random),
            host: text(&random),
            scheme: text(&random),
            httpVersion: text(&random),
            networkProtocol: text(&random),
            status: optional(&random) { $0.below(600) },
            statusText: text(&random),
            error: optional(&random, text),
            outcome: random.pick(HTTPTransaction.Outcome.allCases),
            trafficType: random.pick(HTTPTransaction.TrafficType.allCases),
            mimeType: text(&random),
            startedDateTime: text(&random),
            startEpochSeconds: double(&random),
            phases: HTTPTransaction.Phases(
                fetchStart: double(&random),
                domainLookupStart: double(&random),
                domainLookupEnd: double(&random),
                connectStart: double(&random),
                connectEnd: double(&random),
                secureConnectionStart: double(&random),
                secureConnectionEnd: double(&random),
                requestStart: double(&random),
                requestEnd: double(&random),
                responseStart: double(&random),
                responseEnd: double(&random)
            ),
            durations: HTTPTransaction.Durations(
                blocked: double(&random),
                dns: double(&random),
                connect: double(&random),
                tls: double(&random),
                send: double(&random),
                wait: double(&random),
                receive: double(&random),
                total: double(&random)
            ),
            totalReported: double(&random),
            reusedConnection: optional(&random) { $0.chance() },
            proxyConnection: optional(&random) { $0.chance() },
            fromCache: random.chance(),
            remoteAddress: optional(&random, text),
            remotePort: optional(&random) { $0.below(70_000) },
            connectionID: optional(&random, text),
            sizes: HTTPTransaction.Sizes(
                request: Int64(random.below(1 << 20)) - 1,
                requestHeaders: Int64(bitPattern: random.next()),
                requestBody: -1,
                responseHeaders: Int64(random.below(5_000)),
                responseBody: Int64.max,
                transfer: Int64.min,
                decoded: 0
            ),
            tls: optional(&random) {
                HTTPTransaction.TLSInfo(
                    serverName: optional(&$0, text),
                    version: optional(&$0, text),
                    cipherSuite: optional(&$0, text),
                    alpn: optional(&$0, text),
                    alert: optional(&$0, text)
                )
            },
            requestHeaders: (0..<random.below(4)).map { _ in
                HTTPTransaction.Header(name: random.pick(Self.texts), value: random.pick(Self.texts))
            },
            responseHeaders: (0..<random.below(3)).map { _ in
                HTTPTransaction.Header(name: random.pick(Self.texts), value: random.pick(Self.texts))
            },
            provenance: HTTPTransaction.Provenance(
                measured: (0..<random.below(4)).map { _ in random.pick(Self.texts) },
                unknown: (0..<random.below(3)).map { _ in random.pick(Self.texts) },
                sslIncludedInConnect: optional(&random) { $0.chance() },
                connectIncludesDNS: random.chance(),
                timeIsWallClock: random.chance(),
                startTimeAssumedUTC: random.chance(),
                cacheInferred: random.chance(),
                encrypted: random.chance(),
                rejected: (0..<random.below(2)).map { _ in random.pick(Self.texts) }
            ),
            extensions: extensions
        )
    }

    @Test func randomTransactionsWriteAsTheirCodableForm() {
        var random = SeededGenerator(seed: 21)
        for round in 0..<300 {
            let one = transaction(&random)
            #expect(directEncodingMismatches(one) == [], "transaction \(round)")
            let list = (0..<random.below(3)).map { _ in transaction(&random) }
            #expect(
                directEncodingMismatches(NestedHolder(single: list.first, list: list, nested: [list])) == [],
                "list \(round)"
            )
        }
    }

    @Test func keptValuesWriteAsTheirCodableForm() {
        var random = SeededGenerator(seed: 7)
        for round in 0..<500 {
            let kept = value(&random, depth: 0)
            var one = HTTPTransaction()
            one.extensions = ["kept": kept]
            #expect(directEncodingMismatches(one) == [], "kept value \(round)")
        }
    }
}
