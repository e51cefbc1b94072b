// The per-transaction counting the whole-capture summary (`HTTPSummary(transactions:)`) and the streaming one
// (`HTTPSummaryAccumulator`) share, so both count a transaction the same way.
extension HTTPSummary {
    /// Counts `transaction` in the totals; true when it went over the network (all but cache hits).
    ///
    /// Counted: its protocol, a request or a connection seen only encrypted, a cache hit or its outcome. The error
    /// rates are over the transactions that went over the network.
    mutating func count(_ transaction: HTTPTransaction) -> Bool {
        protocols[transaction.networkProtocol, default: 0] += 1
        if transaction.provenance.encrypted {
            encryptedConnections += 1
            if transaction.outcome == .networkError { failedConnections += 1 }
            return true
        }
        requests += 1
        if transaction.fromCache {
            cached += 1
            return false
        }
        switch transaction.outcome {
        case .success: succeeded += 1
        case .clientError: clientErrors += 1
        case .serverError: serverErrors += 1
        case .networkError: networkErrors += 1
        case .unknown: unknownOutcome += 1
        }
        return true
    }

    /// Sets the rates from the counts, `networkCount` being how many transactions went over the network, and the
    /// time the capture covers.
    mutating func setRates(networkCount: Int, span: Span) {
        let httpErrors = clientErrors + serverErrors
        let answered = succeeded + httpErrors
        httpErrorRate = answered > 0 ? Double(httpErrors) / Double(answered) : 0
        networkErrorRate = networkCount == 0 ? 0 : Double(networkErrors + failedConnections) / Double(networkCount)
        cachedShare = requests > 0 ? Double(cached) / Double(requests) : 0
        spanMilliseconds = span.milliseconds
    }

}

extension HTTPSummary.TypeShare {
    /// Counts one transaction of this type, a request or a connection seen only encrypted, and its known sizes.
    mutating func add(_ transaction: HTTPTransaction, connectionOnly: Bool) {
        if connectionOnly { encryptedConnections += 1 } else { requests += 1 }
        if transaction.sizes.transfer >= 0 { transferBytes = transferBytes.saturatingAdd(transaction.sizes.transfer) }
        if transaction.sizes.decoded >= 0 { decodedBytes = decodedBytes.saturatingAdd(transaction.sizes.decoded) }
    }
}
