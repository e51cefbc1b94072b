import APMInspectCore

extension HTTPCapture {
    /// Sets the transactions a reader kept, in the order every reader gives (by parsed start time, unknown starts
    /// last, file order among equals), and their summary.
    mutating func setTransactions(_ kept: consuming [HTTPTransaction]) {
        var sorted = kept
        HTTPCaptureSorting.sort(&sorted)
        transactions = sorted
        summary = HTTPSummary(transactions: transactions)
    }

    /// A reader's `read`: its `visit`, with every transaction handed over kept, sorted and summarised.
    ///
    /// `capacity` is the number of transactions the reader expects, when it can tell cheaply.
    static func keepingTransactions(
        capacity: Int = 0,
        _ visit: (_ body: (HTTPTransaction) -> Void) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic])
    ) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        var transactions: [HTTPTransaction] = []
        transactions.reserveCapacity(capacity)
        var (capture, diagnostics) = try visit { transactions.append($0) }
        capture.setTransactions(transactions)
        return (capture, diagnostics)
    }
}
