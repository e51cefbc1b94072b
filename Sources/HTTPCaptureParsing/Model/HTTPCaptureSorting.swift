/// Orders transactions by start time.
enum HTTPCaptureSorting {
    /// Sorted by start time (unknown starts last, input order kept among equals), with `index` renumbered.
    static func sorted(_ transactions: [HTTPTransaction]) -> [HTTPTransaction] {
        func before(_ x: Double, _ y: Double) -> Bool { (x < 0) != (y < 0) ? y < 0 : x < y }
        var inOrder = true
        for i in transactions.indices.dropFirst()
        where before(transactions[i].startEpochSeconds, transactions[i - 1].startEpochSeconds) {
            inOrder = false
            break
        }
        if inOrder {
            // The usual case (exporters write in order): renumber in place, no copies.
            var out = transactions
            for i in out.indices { out[i].index = i }
            return out
        }
        let order = transactions.indices.sorted { a, b in
            let x = transactions[a].startEpochSeconds
            let y = transactions[b].startEpochSeconds
            if (x < 0) != (y < 0) { return y < 0 }
            return x != y ? x < y : a < b
        }
        return order.enumerated().map { rank, original in
            var transaction = transactions[original]
            transaction.index = rank
            return transaction
        }
    }
}
