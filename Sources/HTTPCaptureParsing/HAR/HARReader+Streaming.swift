import APMInspectCore

extension HARReader {
    /// Reads a parsed HAR document for writing out one transaction at a time (``HTTPCaptureStream``).
    ///
    /// A first pass builds every transaction without its vendor fields and headers and keeps only what the summary
    /// and the start-time order need; the stream rebuilds each entry in full when it is handed over. The capture,
    /// diagnostics and transactions are those of ``read(_:)``.
    ///
    /// With a `spool`, the first pass builds each transaction in full and encodes it there (see
    /// ``HTTPCaptureReader/readStream(_:spool:)``); the light copies and the entries are kept all the same, so a
    /// spool that fails part way leaves the stream to rebuild.
    ///
    /// With `windowed`, `document` is its skeleton and the entries are read from its file one at a time; the
    /// stream's second pass reads each again from the file.
    ///
    /// - Throws: as ``read(_:)``.
    func stream(
        _ document: JSONDocument,
        windowed: HARWindowedFile? = nil,
        spool: HTTPTransactionSpool? = nil
    ) throws(HTTPCaptureError) -> HTTPCaptureStream {
        var light: [HTTPTransaction] = []
        var entries: [HARReplay.Entry] = []
        if let count = windowed?.spans.count ?? document.root.member("log")?.member("entries")?.count {
            light.reserveCapacity(count)
            entries.reserveCapacity(count)
        }
        var spooling = spool?.spool.removeAll() ?? false
        let visited = try visitEntries(
            document,
            windowed: windowed,
            keepsVerbatim: spool != nil,
            keepsElements: true
        ) {
            light.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            if spooling, let spool { spooling = spool.spool.removeAll() }
        } _: { transaction, entry in
            light.append(Self.summaryFigures(of: transaction))
            entries.append(entry)
            if spooling, let spool { spooling = spool.spool.append(transaction) }
        }
        var capture = visited.0
        let order = HTTPCaptureSorting.order(light)
        HTTPCaptureSorting.sort(&light)
        capture.summary = HTTPSummary(transactions: light)
        let replay = HARReplay(
            places: windowed == nil ? .document(document) : .offsets,
            file: windowed,
            entries: order.map { positions in positions.map { entries[$0] } } ?? entries,
            conventions: visited.2,
            options: options
        )
        let spooled = spooling && spool.map { $0.count == entries.count } == true ? spool : nil
        return HTTPCaptureStream(
            capture: capture,
            diagnostics: visited.1,
            storage: .har(replay),
            spooled: spooled.map(ObjectIdentifier.init),
            spooledOrder: spooled == nil ? nil : order
        )
    }

    /// The fields of `transaction` that ``HTTPSummary/init(transactions:)`` and the start-time order read; the
    /// text fields it holds on the heap (URL, dates, header values) are left out, for a million entries they
    /// would be hundreds of MB held for nothing.
    static func summaryFigures(of transaction: HTTPTransaction) -> HTTPTransaction {
        var light = HTTPTransaction(
            index: transaction.index,
            host: transaction.host,
            networkProtocol: transaction.networkProtocol,
            status: transaction.status,
            outcome: transaction.outcome,
            trafficType: transaction.trafficType,
            startEpochSeconds: transaction.startEpochSeconds,
            phases: transaction.phases,
            durations: transaction.durations,
            fromCache: transaction.fromCache,
            sizes: transaction.sizes
        )
        light.provenance.encrypted = transaction.provenance.encrypted
        return light
    }

    /// Replaces transactions built without vendor fields and headers (`visitEntries` with `keepsVerbatim` false)
    /// by the full ones, each keeping its `index`: `positions` gives each index's place in `log.entries`.
    func rebuild(
        _ transactions: inout [HTTPTransaction],
        document: JSONDocument,
        positions: [Int],
        conventions: HARReplay.Conventions
    ) {
        var wanted: [Int: [Int]] = [:]
        for (k, transaction) in transactions.enumerated() where positions.indices.contains(transaction.index) {
            wanted[positions[transaction.index], default: []].append(k)
        }
        guard !wanted.isEmpty, let list = document.root.member("log")?.member("entries") else { return }
        var found: [(entry: HARReplay.Entry, slots: [Int])] = []
        for (position, element) in list.elements.enumerated() {
            guard let slots = wanted[position] else { continue }
            found.append((HARReplay.Entry(element: element, position: position), slots))
            if found.count == wanted.count { break }
        }
        let replay = HARReplay(
            places: .document(document),
            file: nil,
            entries: found.map(\.entry),
            conventions: conventions,
            options: options
        )
        for (rank, item) in found.enumerated() {
            var full = replay.transaction(at: rank)
            for slot in item.slots {
                full.index = transactions[slot].index
                transactions[slot] = full
            }
        }
    }
}
