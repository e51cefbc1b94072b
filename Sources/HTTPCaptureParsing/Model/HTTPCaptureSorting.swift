/// Orders transactions by start time.
enum HTTPCaptureSorting {
    /// The positions of `transactions` in start-time order (``sort(_:)``'s order), or nil when they are in it
    /// already.
    ///
    /// A capture streamed to the output sorts a light copy of its transactions and replays the full ones in this
    /// order.
    static func order(_ transactions: [HTTPTransaction]) -> [Int]? {
        func before(_ x: Double, _ y: Double) -> Bool { (x < 0) != (y < 0) ? y < 0 : x < y }
        var inOrder = true
        for i in transactions.indices.dropFirst()
        where before(transactions[i].startEpochSeconds, transactions[i - 1].startEpochSeconds) {
            inOrder = false
            break
        }
        guard !inOrder else { return nil }
        return transactions.indices.sorted { a, b in
            let x = transactions[a].startEpochSeconds
            let y = transactions[b].startEpochSeconds
            if (x < 0) != (y < 0) { return y < 0 }
            return x != y ? x < y : a < b
        }
    }

    /// Sorts by start time (unknown starts last, input order kept among equals), with `index` renumbered.
    ///
    /// The order is worked out on indexes and then applied by following its cycles with swaps: building a sorted
    /// copy held two arrays of transactions at once (a million HAR entries made the copy 0.6 GB).
    static func sort(_ transactions: inout [HTTPTransaction]) {
        if let order = order(transactions) {
            // Position `rank` takes the transaction at `order[rank]`: each cycle of the permutation is walked once.
            var placed = [Bool](repeating: false, count: order.count)
            for start in order.indices where !placed[start] {
                var rank = start
                while order[rank] != start {
                    let from = order[rank]
                    transactions.swapAt(rank, from)
                    placed[rank] = true
                    rank = from
                }
                placed[rank] = true
            }
        }
        // The usual case (exporters write in order) only renumbers, in place.
        for i in transactions.indices { transactions[i].index = i }
    }
}
