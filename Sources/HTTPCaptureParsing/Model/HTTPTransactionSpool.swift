import APMInspectCore
import ByteAccess

/// A HAR file's full transactions encoded as JSON while the file is read (``HTTPCaptureReader/readStream(_:spool:)``),
/// to be written after the capture's summary and diagnostics, which come before them in the output.
///
/// Without it, the stream reads a HAR twice: a light build of every entry for the summary, then a second parse and
/// full build of each entry as it is written (about a third of `http --format json`). With it, each entry is
/// parsed, built and encoded once, and the encoded transactions wait in a temporary file without a name
/// (`JSONArraySpool`), not in memory.
///
/// A transaction is encoded before its place in the capture's start-time order is known, with its place in the file
/// as its `index`; ``writeTransactions(of:to:)`` writes each one's place in the capture instead, as the encoded
/// capture has it.
package final class HTTPTransactionSpool {
    let spool: JSONArraySpool
    private let pretty: Bool

    /// A spool for transactions written as `encoder` writes the `transactions` array of a capture encoded
    /// `depth` levels deep (the array's own depth).
    ///
    /// - Throws: `InputError` when the temporary file cannot be created (`TMPDIR`, else `/tmp`, unless
    ///   `directory`).
    package init(encoder: SortedJSONEncoder, depth: Int, directory: String? = nil) throws(InputError) {
        spool = try JSONArraySpool(encoder: encoder, depth: depth, directory: directory)
        pretty = encoder.pretty
    }

    /// Transactions spooled.
    package var count: Int { spool.count }

    /// Writes the `transactions` array of `stream`'s capture, `[` to `]`, as encoding the capture writes it; false
    /// when `stream` was not spooled here in full or the spool could not be read back (the output is cut short only
    /// in the second case).
    package func writeTransactions(of stream: HTTPCaptureStream, to body: (BorrowedBytes) -> Void) -> Bool {
        guard stream.spooled == ObjectIdentifier(self), spool.count == stream.transactionCount else { return false }
        let pretty = pretty
        return spool.writeArray(
            order: stream.spooledOrder,
            element: { rank, position, bytes, out in
                guard rank != position else { return out(bytes) }
                Self.renumber(bytes, pretty: pretty, to: rank, out)
            },
            to: body
        )
    }

    /// Hands out the JSON of a transaction with its own `index` member's value replaced by `index`.
    ///
    /// The member is found as the last `"index"` key: the transaction writes its members in key order, so its own
    /// `index` comes after `extensions` (where a vendor field may use the same key), and no member after it has one;
    /// every `"` inside a string is escaped, so the key's bytes, quote, colon and all, cannot come from a string.
    static func renumber(
        _ bytes: BorrowedBytes,
        pretty: Bool,
        to index: Int,
        _ out: (BorrowedBytes) -> Void
    ) {
        let key: StaticString = pretty ? #""index" : "# : #""index":"#
        // Every transaction has an `index`: not found means bytes this spool did not write, handed out unchanged.
        guard let at = bytes.lastIndex(of: key) else { return out(bytes) }
        let valueStart = at + key.utf8CodeUnitCount
        var valueEnd = valueStart
        while valueEnd < bytes.count,
            bytes[unchecked: valueEnd] == UInt8(ascii: "-") || (bytes[unchecked: valueEnd] &- 0x30) < 10
        {
            valueEnd += 1
        }
        out(bytes.prefix(valueStart))
        Array(String(index).utf8).withBorrowedBytes { out($0) }
        out(bytes.slice(from: valueEnd))
    }
}
