import APMInspectCore

/// Health figures built from transactions visited one at a time, keeping only running totals.
///
/// A text summary of a million-entry HAR needs counts, rates, per-host figures and the few slowest requests, not
/// the million transactions: this keeps memory bounded whatever the capture holds. Percentiles are exact while
/// every sketch together holds at most ``Limits/exactValues`` values, then all switch to log-bucketed histograms
/// (``PercentileSketch``); hosts beyond ``Limits/maxHosts`` are counted together as ``otherHosts``. Within those
/// limits the result equals ``HTTPSummary/init(transactions:)`` whatever order the transactions come in.
package struct HTTPSummaryAccumulator: Sendable {
    /// How much the accumulator may keep.
    package struct Limits: Sendable, Equatable {
        /// Distinct hosts with their own row; later new hosts go to ``HTTPSummaryAccumulator/otherHosts``.
        package var maxHosts: Int
        /// Phase values kept exactly, over all sketches, before every sketch becomes a histogram.
        package var exactValues: Int
        /// Slowest transactions kept.
        package var slowest: Int

        package init(maxHosts: Int = 1000, exactValues: Int = 2_000_000, slowest: Int = HTTPSummary.slowestCount) {
            self.maxHosts = maxHosts
            self.exactValues = exactValues
            self.slowest = slowest
        }

        /// No cap: the figures of every host, exact percentiles (memory grows with the capture).
        package static let unbounded = Limits(maxHosts: .max, exactValues: .max)
    }

    /// The row that gathers the hosts seen after ``Limits/maxHosts`` distinct ones.
    package static let otherHosts = "(other hosts)"

    package let limits: Limits
    private var summary = HTTPSummary()
    private var networkCount = 0
    private var span = HTTPSummary.Span()
    private var overall = PhaseSketches()
    private var hosts: [String: HostTotals] = [:]
    private var types: [HTTPTransaction.TrafficType: HTTPSummary.TypeShare] = [:]
    private var requestsFolded = 0
    private var storedValues = 0
    private var approximate = false
    private var ranked: [(order: OrderKey, transaction: HTTPTransaction)] = []
    private var sequence = 0

    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds one transaction; `order` ranks equal totals in the slowest list (the position in the capture's
    /// start-time order, or the file position when visited unsorted), nil for the count of transactions added.
    package mutating func add(_ transaction: HTTPTransaction, order: Int? = nil) {
        let position = order ?? sequence
        sequence += 1
        let connectionOnly = transaction.provenance.encrypted
        let live = summary.count(transaction)
        if live { networkCount += 1 }
        var name = transaction.host.isEmpty ? "(unknown)" : transaction.host
        if hosts[name] == nil, hosts.count >= limits.maxHosts {
            requestsFolded += 1
            name = Self.otherHosts
        }
        var host = hosts.removeValue(forKey: name) ?? HostTotals(host: name)
        if connectionOnly { host.row.encryptedConnections += 1 } else { host.row.requests += 1 }
        let sizes = transaction.sizes
        if sizes.transfer >= 0 {
            host.row.transferBytes = host.row.transferBytes.saturatingAdd(sizes.transfer)
            host.row.transferKnown += 1
        }
        if sizes.decoded >= 0 { host.row.decodedBytes = host.row.decodedBytes.saturatingAdd(sizes.decoded) }
        if live {
            if transaction.outcome == .clientError || transaction.outcome == .serverError { host.row.httpErrors += 1 }
            if transaction.outcome == .networkError { host.row.networkErrors += 1 }
            storedValues = storedValues.addingReportingOverflow(host.phases.add(transaction.durations)).partialValue
        } else {
            host.row.cached += 1
        }
        hosts[name] = host
        types[transaction.trafficType, default: HTTPSummary.TypeShare(type: transaction.trafficType)].add(
            transaction,
            connectionOnly: connectionOnly
        )
        span.add(transaction)
        if live {
            storedValues = storedValues.addingReportingOverflow(overall.add(transaction.durations)).partialValue
            if transaction.durations.total >= 0 {
                rank(transaction, OrderKey(start: transaction.startEpochSeconds, position: position))
            }
        }
        if !approximate, storedValues > limits.exactValues { switchToHistograms() }
    }

    /// The figures so far, with the slowest transactions (slowest first) that `summary.slowest` refers to: their
    /// `order` values, or positions in the returned list when `slowestAsPositions` is true.
    package func finished(slowestAsPositions: Bool = false) -> (
        summary: HTTPSummary, slowest: [HTTPTransaction], diagnostics: [Diagnostic]
    ) {
        var out = summary
        out.setRates(networkCount: networkCount, span: span)
        out.overall = overall.statistics
        out.hosts = hosts.values.map { totals in
            var row = totals.row
            row.phases = totals.phases.statistics
            return row
        }
        .sorted(by: HTTPSummary.Host.busierFirst)
        out.byType = HTTPTransaction.TrafficType.allCases.compactMap { types[$0] }
        out.slowest = slowestAsPositions ? Array(ranked.indices) : ranked.map(\.order.position)
        var diagnostics: [Diagnostic] = []
        if requestsFolded > 0 {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .httpHostsFolded,
                    "more than \(limits.maxHosts) distinct hosts: \(requestsFolded) requests to hosts seen after "
                        + "them are counted together as \(Self.otherHosts)"
                )
            )
        }
        if approximate {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .httpPercentilesApproximate,
                    "more than \(limits.exactValues) timing values: percentiles come from log-bucketed histograms, "
                        + "within \(PercentileSketch.relativeErrorPercent) % of the exact value (n and max are exact)"
                )
            )
        }
        return (out, ranked.map(\.transaction), diagnostics)
    }

    /// Keeps the transaction when it is among the slowest: longer total first, then earlier in start order.
    private mutating func rank(_ transaction: HTTPTransaction, _ key: OrderKey) {
        guard limits.slowest > 0 else { return }
        let total = transaction.durations.total
        func before(_ other: (order: OrderKey, transaction: HTTPTransaction)) -> Bool {
            let otherTotal = other.transaction.durations.total
            return total != otherTotal ? total > otherTotal : key < other.order
        }
        if ranked.count >= limits.slowest, let lastKept = ranked.last, !before(lastKept) { return }
        let at = ranked.firstIndex { before($0) } ?? ranked.count
        ranked.insert((key, transaction), at: at)
        if ranked.count > limits.slowest { ranked.removeLast() }
    }

    private mutating func switchToHistograms() {
        approximate = true
        overall.switchToHistograms()
        for name in Array(hosts.keys) { hosts[name]?.phases.switchToHistograms() }
        storedValues = 0
    }
}

extension HTTPSummaryAccumulator {
    /// Where a transaction sits in start-time order: known starts first and ascending, then `position`.
    struct OrderKey: Sendable, Comparable {
        var start: Double
        var position: Int

        static func < (a: OrderKey, b: OrderKey) -> Bool {
            if (a.start < 0) != (b.start < 0) { return b.start < 0 }
            if a.start >= 0, a.start != b.start, !a.start.isNaN, !b.start.isNaN { return a.start < b.start }
            return a.position < b.position
        }
    }

    /// A host row being filled.
    struct HostTotals: Sendable {
        var row: HTTPSummary.Host
        var phases = PhaseSketches()

        init(host: String) {
            row = HTTPSummary.Host(host: host)
        }
    }

    /// The six phase sketches of ``HTTPSummary/PhaseStatistics``.
    struct PhaseSketches: Sendable {
        var total = PercentileSketch()
        var dns = PercentileSketch()
        var connect = PercentileSketch()
        var tls = PercentileSketch()
        var ttfb = PercentileSketch()
        var receive = PercentileSketch()

        /// Adds the known phases; returns how many values were stored exactly.
        mutating func add(_ d: HTTPTransaction.Durations) -> Int {
            total.add(d.total) + dns.add(d.dns) + connect.add(d.connect) + tls.add(d.tls) + ttfb.add(d.wait)
                + receive.add(d.receive)
        }

        mutating func switchToHistograms() {
            total.switchToHistogram()
            dns.switchToHistogram()
            connect.switchToHistogram()
            tls.switchToHistogram()
            ttfb.switchToHistogram()
            receive.switchToHistogram()
        }

        var statistics: HTTPSummary.PhaseStatistics {
            HTTPSummary.PhaseStatistics(
                total: total.percentiles,
                dns: dns.percentiles,
                connect: connect.percentiles,
                tls: tls.percentiles,
                ttfb: ttfb.percentiles,
                receive: receive.percentiles
            )
        }
    }
}
