extension HTTPCapture {
    /// Sets the transactions a reader kept, in the order every reader gives (by parsed start time, unknown starts
    /// last, file order among equals), and their summary.
    mutating func setTransactions(_ kept: consuming [HTTPTransaction]) {
        var sorted = kept
        HTTPCaptureSorting.sort(&sorted)
        transactions = sorted
        summary = HTTPSummary(transactions: transactions)
    }
}
