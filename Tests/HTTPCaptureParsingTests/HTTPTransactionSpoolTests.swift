import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// A spooled transaction is encoded with its place in the file as its `index` and renumbered to its place in the
/// capture when written: the renumbering must find the transaction's own `index` whatever its strings and vendor
/// fields hold.
@Suite struct HTTPTransactionSpoolTests {
    /// Entries in reverse start order (every transaction is renumbered), whose vendor fields have `index` keys and
    /// whose header values, URL and vendor strings spell the key with its quotes and colon.
    static func hostileHAR(entries: Int) throws -> [UInt8] {
        let list: [[String: Any]] = (0..<entries).map { i in
            [
                "startedDateTime": String(format: "2024-03-01T10:00:%02d.000Z", 59 - i),
                "time": 10,
                "_index": i,
                "_vendor": ["index": 1_000 + i, "note": #""index" : 7, "index":8"#],
                "index": -1,
                "request": [
                    "method": "GET",
                    "url": #"https://example.com/?q="index":3"#,
                    "httpVersion": "HTTP/1.1",
                    "headers": [
                        ["name": "x-pretty", "value": #""index" : 5"#],
                        ["name": "\"index\"", "value": "-42"],
                    ],
                ],
                "response": [
                    "status": 200, "httpVersion": "HTTP/1.1",
                    "headers": [["name": "x-compact", "value": #""index":6,"#]],
                    "content": ["size": 1, "mimeType": "text/plain"],
                ],
                "timings": ["send": 1, "wait": 5, "receive": 4],
            ]
        }
        let document: [String: Any] = [
            "log": ["version": "1.2", "creator": ["name": "t", "version": "1"], "entries": list]
        ]
        return Array(try JSONSerialization.data(withJSONObject: document))
    }

    @Test(arguments: [1, 2, 12])
    func renumberedTransactionsAreTheCapturesOwn(entries: Int) throws {
        let bytes = try Self.hostileHAR(entries: entries)
        let full = try HTTPCaptureReader().read(bytes)
        #expect(full.capture.transactions.map(\.index) == Array(0..<entries))
        try expectSameSpooled(bytes, as: full)
    }

    /// The renumbering alone, on bytes whose last `"index"` key is the transaction's.
    @Test func renumberReplacesTheLastIndexKey() {
        for (pretty, text, expected) in [
            (
                true, #"{ "extensions" : { "index" : 3 }, "index" : 12, "url" : "\"index\" : 4" }"#,
                #"{ "extensions" : { "index" : 3 }, "index" : 7, "url" : "\"index\" : 4" }"#
            ),
            (
                false, #"{"extensions":{"index":3},"index":0,"url":"a"}"#,
                #"{"extensions":{"index":3},"index":1234,"url":"a"}"#
            ),
        ] {
            var out: [UInt8] = []
            let index = pretty ? 7 : 1234
            Array(text.utf8).withBorrowedBytes { bytes in
                HTTPTransactionSpool.renumber(bytes, pretty: pretty, to: index) { out += $0 }
            }
            #expect(String(decoding: out, as: UTF8.self) == expected)
        }
    }

    /// A spool that cannot take a transaction (spent, as by a full disk) leaves the stream to rebuild them: the same
    /// capture, nothing written from the spool.
    @Test func aSpentSpoolLeavesTheStreamToRebuild() throws {
        struct Refused: Error {}
        struct Unwritable: Encodable {
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        let bytes = try Self.hostileHAR(entries: 5)
        let full = try HTTPCaptureReader().read(bytes)
        let spool = try HTTPTransactionSpool(encoder: SortedJSONEncoder(), depth: 2)
        #expect(!spool.spool.append(Unwritable()))
        #expect(!spool.spool.isUsable)
        let stream = try HTTPCaptureReader().readStream(bytes, spool: spool)
        #expect(!stream.isSpooled)
        #expect(stream.diagnostics == full.diagnostics)
        #expect(stream.whole == full.capture)
        var written: [UInt8] = []
        #expect(!spool.writeTransactions(of: stream) { written += $0 })
        #expect(written.isEmpty)
    }

    /// A spool made for one stream writes nothing for another.
    @Test func aSpoolWritesOnlyTheStreamItTook() throws {
        let bytes = try Self.hostileHAR(entries: 3)
        let encoder = SortedJSONEncoder()
        let taken = try HTTPTransactionSpool(encoder: encoder, depth: 2)
        let other = try HTTPTransactionSpool(encoder: encoder, depth: 2)
        let stream = try HTTPCaptureReader().readStream(bytes, spool: taken)
        #expect(stream.isSpooled)
        var written: [UInt8] = []
        #expect(!other.writeTransactions(of: stream) { written += $0 })
        #expect(written.isEmpty)
        let unspooled = try HTTPCaptureReader().readStream(bytes)
        #expect(!unspooled.isSpooled)
        #expect(!taken.writeTransactions(of: unspooled) { written += $0 })
        #expect(written.isEmpty)
    }
}
