import APMInspectCore

extension HTTPSummary {
    /// How many slowest transactions the summary lists.
    package static let slowestCount = 10

    /// Computes the health figures of `transactions` (indexes refer to positions in that array).
    package init(transactions: [HTTPTransaction]) {
        self.init()
        // Indexes, not copies: a transaction is a large value.
        var network: [Int] = []
        network.reserveCapacity(transactions.count)
        var hostOrder: [String] = []
        var byHost: [String: [Int]] = [:]
        var types: [HTTPTransaction.TrafficType: TypeShare] = [:]
        var span = Span()
        for (position, transaction) in transactions.enumerated() {
            if count(transaction) { network.append(position) }
            let host = transaction.host.isEmpty ? "(unknown)" : transaction.host
            if byHost[host] == nil { hostOrder.append(host) }
            byHost[host, default: []].append(position)
            types[transaction.trafficType, default: TypeShare(type: transaction.trafficType)].add(
                transaction,
                connectionOnly: transaction.provenance.encrypted
            )
            span.add(transaction)
        }
        setRates(networkCount: network.count, span: span)
        overall = PhaseStatistics(transactions, indexes: network)
        hosts = hostOrder.map { name in
            let group = byHost[name] ?? []
            let connections = group.count { transactions[$0].provenance.encrypted }
            var host = Host(host: name, requests: group.count - connections, encryptedConnections: connections)
            let live = group.filter { !transactions[$0].fromCache }
            host.cached = group.count - live.count
            host.httpErrors = live.count {
                transactions[$0].outcome == .clientError || transactions[$0].outcome == .serverError
            }
            host.networkErrors = live.count { transactions[$0].outcome == .networkError }
            for position in group {
                let sizes = transactions[position].sizes
                if sizes.transfer >= 0 {
                    host.transferBytes = host.transferBytes.saturatingAdd(sizes.transfer)
                    host.transferKnown += 1
                }
                if sizes.decoded >= 0 { host.decodedBytes = host.decodedBytes.saturatingAdd(sizes.decoded) }
            }
            host.phases = PhaseStatistics(transactions, indexes: live)
            return host
        }
        .sorted(by: Host.busierFirst)
        let ranked = network.filter { transactions[$0].durations.total >= 0 }
            .sorted { transactions[$0].durations.total > transactions[$1].durations.total }
        slowest = Array(ranked.prefix(Self.slowestCount))
        byType = HTTPTransaction.TrafficType.allCases.compactMap { types[$0] }
    }
}

extension HTTPSummary.PhaseStatistics {
    /// Percentiles of each phase over the transactions where it is known.
    package init(_ transactions: [HTTPTransaction]) {
        self.init(transactions, indexes: Array(transactions.indices))
    }

    /// Percentiles of each phase over `transactions[indexes]` where it is known.
    package init(_ transactions: [HTTPTransaction], indexes: [Int]) {
        func stats(_ value: (HTTPTransaction.Durations) -> Double) -> HTTPSummary.Percentiles {
            HTTPSummary.Percentiles(values: indexes.map { value(transactions[$0].durations) }.filter { $0 >= 0 })
        }
        self.init(
            total: stats { $0.total },
            dns: stats { $0.dns },
            connect: stats { $0.connect },
            tls: stats { $0.tls },
            ttfb: stats { $0.wait },
            receive: stats { $0.receive }
        )
    }
}

extension HTTPSummary.Percentiles {
    /// Nearest-rank percentiles: the value at rank ⌈p/100 × n⌉ of the sorted values.
    package init(values: [Double]) {
        guard !values.isEmpty else {
            self.init()
            return
        }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            let position = Int(saturating: (p / 100 * Double(sorted.count)).rounded(.up))
            let index = Swift.min(Swift.max(position, 1), sorted.count) - 1
            return sorted[index]
        }
        self.init(n: sorted.count, p50: rank(50), p90: rank(90), p99: rank(99), max: sorted[sorted.count - 1])
    }
}

extension Int64 {
    /// The sum, stuck at `Int64.max` instead of trapping.
    func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
