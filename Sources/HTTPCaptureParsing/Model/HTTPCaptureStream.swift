import APMInspectCore

/// A capture read for writing out one transaction at a time (``HTTPCaptureReader/readStream(_:)``).
///
/// ``capture`` has every field but the transactions: header fields, pages, extensions and the summary of all the
/// transactions. ``forEachTransaction(_:)`` hands the transactions over in the order ``HTTPCapture/transactions``
/// would hold them. A HAR file's are rebuilt from the file's bytes one by one (a second parse of each entry), so the
/// full transactions, several times the size of the file for a large HAR, are never held together; other formats
/// hold them as they were read.
package struct HTTPCaptureStream: Sendable {
    enum Storage: Sendable {
        case held([HTTPTransaction])
        case har(HARReplay)
    }

    /// The capture without its transactions.
    package var capture: HTTPCapture
    package var diagnostics: [Diagnostic]
    let storage: Storage
    /// The spool that took every transaction while the file was read, if one did
    /// (``HTTPTransactionSpool/writeTransactions(of:to:)``).
    let spooled: ObjectIdentifier?
    /// For each place in the capture's order, the place in the spool of the transaction there; nil when the same.
    let spooledOrder: [Int]?

    init(
        capture: HTTPCapture,
        diagnostics: [Diagnostic],
        storage: Storage,
        spooled: ObjectIdentifier? = nil,
        spooledOrder: [Int]? = nil
    ) {
        self.capture = capture
        self.diagnostics = diagnostics
        self.storage = storage
        self.spooled = spooled
        self.spooledOrder = spooledOrder
    }

    /// True when the spool given to ``HTTPCaptureReader/readStream(_:spool:)`` took every transaction, so
    /// ``HTTPTransactionSpool/writeTransactions(of:to:)`` writes them; ``forEachTransaction(_:)`` still hands them
    /// over (rebuilt, for a HAR).
    package var isSpooled: Bool { spooled != nil }

    /// How many transactions ``forEachTransaction(_:)`` hands over.
    package var transactionCount: Int {
        switch storage {
        case .held(let transactions): transactions.count
        case .har(let replay): replay.entries.count
        }
    }

    /// Hands each transaction to `body`, in the capture's order, stopping at the first error `body` throws.
    ///
    /// A HAR transaction handed over keeps its vendor fields as elements of its entry's parsed text, which it holds
    /// until it is dropped; to keep many, keep ``whole`` (or set their `extensions` again), which holds values.
    package func forEachTransaction(_ body: (HTTPTransaction) throws -> Void) rethrows {
        switch storage {
        case .held(let transactions):
            for transaction in transactions { try body(transaction) }
        case .har(let replay):
            try replay.forEachTransaction(body)
        }
    }

    /// The capture with its transactions, as ``HTTPCaptureReader/read(_:)`` returns it.
    package var whole: HTTPCapture {
        var out = capture
        var transactions: [HTTPTransaction] = []
        transactions.reserveCapacity(transactionCount)
        forEachTransaction { transaction in
            // Held together, the transactions must not each hold their entry's parsed text (``KeptJSONMembers``).
            var transaction = transaction
            transaction.keptExtensions = transaction.keptExtensions.madeValues
            transactions.append(transaction)
        }
        out.transactions = transactions
        return out
    }
}
