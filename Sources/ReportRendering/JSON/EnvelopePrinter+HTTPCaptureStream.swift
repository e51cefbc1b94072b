import APMInspectCore
import HTTPCaptureParsing
import ReportInspection

extension EnvelopePrinter {
    /// Prints an HTTP capture's envelope with its transactions written one at a time from `stream`, the bytes
    /// ``print(_:)`` writes for the whole capture; true when the envelope failed (as ``print(_:)``).
    ///
    /// The envelope is encoded with no transactions and the transactions array is written in place of its empty one,
    /// so that only one full transaction is held at a time (``HTTPCaptureStream``).
    ///
    /// A stream whose transactions went to `spool` as the file was read (``HTTPCaptureStream/isSpooled``) has them
    /// written from it, each parsed and built once; any other is rebuilt entry by entry.
    package func print(
        _ inspection: Inspection,
        transactions stream: HTTPCaptureStream?,
        spool: HTTPTransactionSpool? = nil
    ) -> Bool {
        guard let stream, stream.transactionCount > 0 else { return print(inspection) }
        let pretty = format == .json
        let inArray = pretty && !oneObject
        let depth = inArray ? 1 : 0
        let encoder = SortedJSONEncoder(pretty: pretty)
        guard let head = try? encoder.encode(inspection, depth: depth),
            let cut = Self.transactionsArray(in: head, pretty: pretty, depth: depth)
        else {
            var whole = inspection
            whole.report = .http(stream.whole)
            return print(whole)
        }
        defer { printed += 1 }
        if inArray { sink.out(printed == 0 ? "  " : ",\n  ") }
        sink.out(cut.open)
        /// Ends an envelope whose transactions could not all be written: true (exit status 1), unless the output itself
        /// is gone.
        func cutShort(_ message: String) -> Bool {
            if sink.stopped { return false }
            sink.error(ErrorLine.render(path: inspection.file, location: nil, message: message))
            sink.out("\n")
            return true
        }
        if let spool, stream.isSpooled {
            guard spool.writeTransactions(of: stream, to: { sink.out(bytes: $0) }) else {
                return cutShort("the spooled transactions could not be read back; the output is cut short")
            }
        } else {
            do {
                // One encoding for the whole array: the encoder sorts the keys of a type once per encoding, and hands
                // its bytes out in chunks as they come (`holdingUpTo: 0`).
                try encoder.write(Transactions(stream: stream, sink: sink), depth: depth + 2, holdingUpTo: 0) {
                    sink.out(bytes: $0)
                }
            } catch {
                return cutShort("the report could not be written as JSON: \(error); its output is cut short")
            }
        }
        sink.out(inArray ? cut.close : cut.close + "\n")
        return false
    }

    /// A spool for the transactions of the captures this printer writes (``print(_:transactions:spool:)``): encoded
    /// as they sit in the envelope; nil for text, or when no temporary file can be made (the transactions are then
    /// rebuilt as they are written, the same bytes).
    package func transactionSpool() -> HTTPTransactionSpool? {
        guard format != .text else { return nil }
        let pretty = format == .json
        let depth = pretty && !oneObject ? 1 : 0
        return try? HTTPTransactionSpool(encoder: SortedJSONEncoder(pretty: pretty), depth: depth + 2)
    }

    /// The stream's transactions, encoded as the array `HTTPCapture.transactions` encodes, built one at a time.
    private struct Transactions: Encodable {
        let stream: HTTPCaptureStream
        let sink: OutputSink

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try stream.forEachTransaction { transaction in
                // Once standard output is lost, building the rest is wasted work.
                if sink.stopped { throw CancellationError() }
                try container.encode(transaction)
            }
        }
    }

    /// `head` cut around its empty `transactions` array: the text before its opening bracket, and after its closing
    /// bracket; nil when the array is not found.
    ///
    /// The capture's `transactions` key is the last one at its depth (the envelope's later keys hold no capture), and
    /// a key's quotes cannot come from inside a string, where quotes are escaped.
    package static func transactionsArray(in head: String, pretty: Bool, depth: Int) -> (open: String, close: String)? {
        let utf8 = Array(head.utf8)
        let marker = Array(
            (pretty
                ? "\n" + String(repeating: " ", count: 2 * (depth + 2)) + "\"transactions\" : ["
                : "\"transactions\":[").utf8
        )
        guard utf8.count >= marker.count else { return nil }
        var start = utf8.count - marker.count
        while start >= 0, !utf8[start..<start + marker.count].elementsEqual(marker) { start -= 1 }
        guard start >= 0 else { return nil }
        var close = start + marker.count
        while close < utf8.count, utf8[close] == 0x20 || utf8[close] == 0x0A { close += 1 }
        guard close < utf8.count, utf8[close] == UInt8(ascii: "]") else { return nil }
        let open = String(decoding: utf8[..<(start + marker.count - 1)], as: UTF8.self)
        return (open, String(decoding: utf8[(close + 1)...], as: UTF8.self))
    }
}
