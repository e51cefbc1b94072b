import APMInspectCore
import Dispatch

/// The entries of a HAR file rebuilt one at a time, in the order of the capture's transactions: the second pass of
/// a streamed capture (``HTTPCaptureReader/readStream(_:)``), so that the full transactions (vendor fields,
/// headers) are never all held at once, only the file's bytes and a light copy of each transaction.
struct HARReplay: Sendable {
    /// An entry as the document holds it (kept opaque), or its span of the file when the file is read a window
    /// at a time (``HARWindowedFile``), and its position in `log.entries`.
    struct Entry: Sendable {
        var element: JSONElement?
        var span: Range<Int> = 0..<0
        var position: Int
    }

    /// The file-wide timing conventions ``HARReader`` decided from all the entries, which each entry is read with.
    struct Conventions: Sendable, Equatable {
        var sslAdditive = false
        var connectIncludesDNS = false
        var wallClock = false
    }

    let places: HARPlaces
    /// The file the entries without an element are read from.
    let file: HARWindowedFile?
    /// In the capture's order (start time).
    let entries: [Entry]
    let conventions: Conventions
    let options: HTTPCaptureOptions

    /// The transaction at `rank` in the capture's order, built as the first pass built it (its diagnostics were
    /// said then and are dropped here).
    func transaction(at rank: Int) -> HTTPTransaction {
        let item = entries[rank]
        // The first pass read these bytes, so they expand again; a blank transaction rather than a trap otherwise
        // (a file changed since).
        let expanded: JSONElement?
        if let element = item.element {
            expanded = HARReader.expand(element)
        } else {
            expanded = file?.entry(at: item.span)
        }
        guard let entry = expanded else { return HTTPTransaction(index: rank) }
        var builder = HAREntryBuilder(
            places: places,
            entry: entry,
            path: "log.entries[\(item.position)]",
            sslAdditive: conventions.sslAdditive,
            connectIncludesDNS: conventions.connectIncludesDNS,
            wallClock: conventions.wallClock,
            options: options
        )
        builder.keepsElements = true
        var log = DiagnosticLog()
        var transaction = builder.build(log: &log)
        transaction.index = rank
        return transaction
    }

    /// Hands the transactions to `body` in rank order.
    ///
    /// With ``HTTPCaptureOptions/buildsAhead`` the next chunk is rebuilt on another thread while `body` takes the
    /// current one, so on two cores the rebuild and the writing of `http --format json` overlap; at most two chunks
    /// of full transactions are held.
    func forEachTransaction(_ body: (HTTPTransaction) throws -> Void) rethrows {
        let chunk = 32
        guard options.buildsAhead, entries.count > chunk else {
            for rank in entries.indices { try body(transaction(at: rank)) }
            return
        }
        var current = transactions(0..<chunk)
        var start = chunk
        while true {
            let next = start..<Swift.min(start + chunk, entries.count)
            let built = BuiltChunk()
            let group = DispatchGroup()
            if !next.isEmpty {
                DispatchQueue.global().async(group: group) { built.transactions = self.transactions(next) }
            }
            // The chunk being built is waited for even when `body` throws: nothing is left running on return.
            defer { group.wait() }
            for transaction in current { try body(transaction) }
            group.wait()
            guard !next.isEmpty else { return }
            current = built.transactions
            start = next.upperBound
        }
    }

    private func transactions(_ ranks: Range<Int>) -> [HTTPTransaction] {
        ranks.map { transaction(at: $0) }
    }

    /// A chunk built on another thread, read after the group it was built in is waited for.
    private final class BuiltChunk: @unchecked Sendable {
        var transactions: [HTTPTransaction] = []
    }
}
