import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// A capture read for writing one transaction at a time (`readStream`) must hand over what `read` holds: the same
/// header fields, summary, diagnostics and transactions in the same order, for HAR files rebuilt entry by entry as
/// for the formats held whole.
@Suite struct CaptureStreamTests {
    @Test(arguments: StreamedSummaryTests.corpusFiles)
    func streamEqualsReadOnCorpus(name: String) throws {
        try expectSameCapture(try Corpus.bytes(name))
    }

    /// Unsorted starts, unknown starts and equal totals: the replay order must be the sorted capture's.
    @Test(arguments: [0, 1, 7, 500])
    func streamEqualsReadOnGeneratedHAR(entries: Int) throws {
        try expectSameCapture(StreamedSummaryTests.har(entries: entries, hosts: 4, seed: UInt64(entries) + 5))
        try expectSameCapture(
            StreamedSummaryTests.har(entries: entries, hosts: 3, seed: UInt64(entries), equalTotals: true)
        )
    }

    /// Rebuilt a chunk ahead on another thread, the transactions come in the same order and the same.
    @Test(arguments: [0, 31, 32, 33, 64, 65, 500])
    func streamBuiltAheadEqualsRead(entries: Int) throws {
        var options = HTTPCaptureOptions()
        options.buildsAhead = true
        try expectSameCapture(
            StreamedSummaryTests.har(entries: entries, hosts: 4, seed: UInt64(entries) + 9),
            options: options
        )
    }

    /// A caller that stops part way (its closure throws) gets the error, with nothing left running.
    @Test func streamBuiltAheadStopsAtTheFirstError() throws {
        struct Stop: Error {}
        var options = HTTPCaptureOptions()
        options.buildsAhead = true
        let stream = try HTTPCaptureReader(options: options).readStream(
            StreamedSummaryTests.har(entries: 200, hosts: 3, seed: 4)
        )
        var seen = 0
        #expect(throws: Stop.self) {
            try stream.forEachTransaction { _ in
                seen += 1
                if seen == 70 { throw Stop() }
            }
        }
        #expect(seen == 70)
    }

    @Test func streamEqualsReadOnGeneratedPackets() throws {
        for (_, bytes) in GeneratedCaptures.all { try expectSameCapture(bytes) }
    }

    @Test func headersKeptWhenAsked() throws {
        var options = HTTPCaptureOptions()
        options.redactSecrets = false
        try expectSameCapture(try Corpus.bytes("chrome_h2_ssl-inside-connect.har"), options: options)
    }

    private func expectSameCapture(_ bytes: [UInt8], options: HTTPCaptureOptions = HTTPCaptureOptions()) throws {
        let reader = HTTPCaptureReader(options: options)
        let full: HTTPCaptureReader.Result
        do {
            full = try reader.read(bytes)
        } catch {
            #expect(throws: HTTPCaptureError.self) { _ = try reader.readStream(bytes) }
            return
        }
        let stream = try reader.readStream(bytes)
        #expect(stream.diagnostics == full.diagnostics)
        #expect(stream.transactionCount == full.capture.transactions.count)
        var header = full.capture
        header.transactions = []
        #expect(stream.capture == header)
        #expect(stream.whole == full.capture)
        try expectSameSpooled(bytes, options: options, as: full)
    }
}

/// Read with a spool (`readStream(_:spool:)`), a HAR's transactions are built once and written from the spool: the
/// stream must still be the same, and the array written the bytes that encoding the whole capture's transactions
/// writes, in compact and pretty layouts, at any depth, whatever order the entries' start times put them in.
func expectSameSpooled(
    _ bytes: [UInt8],
    options: HTTPCaptureOptions = HTTPCaptureOptions(),
    as full: HTTPCaptureReader.Result,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
    let reader = HTTPCaptureReader(options: options)
    for (pretty, depth) in [(false, 2), (true, 2), (true, 3)] {
        let encoder = SortedJSONEncoder(pretty: pretty)
        let spool = try HTTPTransactionSpool(encoder: encoder, depth: depth)
        let stream = try reader.readStream(bytes, spool: spool)
        #expect(stream.diagnostics == full.diagnostics, sourceLocation: sourceLocation)
        var header = full.capture
        header.transactions = []
        #expect(stream.capture == header, sourceLocation: sourceLocation)
        // Every HAR with transactions is spooled; other formats are held whole and never are.
        let spooledExpected = full.capture.source == .har
        #expect(stream.isSpooled == spooledExpected, sourceLocation: sourceLocation)
        guard stream.isSpooled else { continue }
        var written: [UInt8] = []
        #expect(spool.writeTransactions(of: stream) { written += $0 }, sourceLocation: sourceLocation)
        let expected = try encoder.encode(full.capture.transactions, depth: depth)
        #expect(String(decoding: written, as: UTF8.self) == expected, sourceLocation: sourceLocation)
        // The transactions can still be handed over one by one (rebuilt).
        #expect(stream.whole == full.capture, sourceLocation: sourceLocation)
    }
}
