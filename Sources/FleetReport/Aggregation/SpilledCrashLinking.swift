/// The linking of a `CrashLedger` whose records were written out as sorted runs: the clusters, and the order of
/// them, that `CrashLedger.clusters()` and `groupingOrder(_:)` give in memory, in memory bounded by the budget.
///
/// Each step is a sort on disk (``SpillSort``) or a merge: the runs merged in content order give every crash its
/// position; the dated crashes sorted by binary UUID (then process name) and time, and the crashes sorted by
/// incident id, are swept with the in-memory pass's candidate window (at most `CrashLedger.maxCandidates` later
/// crashes, within the time window), which only ever looks ahead, so its pending crashes are few. The candidate
/// pairs join crashes into components (a union-find over positions: four bytes a crash, the one array as long as
/// the input); a crash in no pair is a cluster on its own, and each component's crashes and pairs, sorted by
/// component, are resolved as the in-memory pass resolves them all (pairs by gap, then positions, merged only when
/// every pair across links), which gives the same clusters since a merge only ever looks inside one component.
struct SpilledCrashLinking {
    let file: SpillFile
    /// The ledger's runs, each sorted in content order (fewer than ``SpillMerge/fanIn``).
    let runs: [SpillRun]
    let groupingRanks: [Int]
    let budget: Int
    let directory: String?

    /// True when a run or a step's sort could not be written or read back whole.
    private(set) var failed = false

    private var contentOrder: (CrashLedgerEntry, CrashLedgerEntry) -> Bool {
        let ranks = groupingRanks
        return { CrashLedgerEntry.compareContent($0, $1, groupingRanks: ranks) < 0 }
    }

    /// Every record, its position set, in content order.
    private func forEachInContentOrder(_ body: (CrashLedgerEntry) -> Void) {
        var position = 0
        var entries = SpillSort<CrashLedgerEntry>.merge(runs, file: file, memory: [], by: contentOrder)
        while var entry = entries.next() {
            entry.position = position
            position += 1
            body(entry)
        }
    }

    /// Hands `body` each cluster, the richest record first, in content order (`CrashLedger.clusters()`) or in
    /// grouping order (`CrashLedger.groupingOrder(_:)`).
    mutating func resolve(grouping: Bool, _ body: ([CrashLedgerEntry]) -> Void) {
        let share = max(1, budget / 4)
        var byUUID = SpillSort<CrashLedgerEntry>(budget: share, directory: directory, by: Self.timeOrder(.uuid))
        var byProcess = SpillSort<CrashLedgerEntry>(budget: share, directory: directory, by: Self.timeOrder(.process))
        var byIncident = SpillSort<CrashLedgerEntry>(budget: share, directory: directory, by: Self.incidentOrder)
        var count = 0
        forEachInContentOrder { entry in
            count += 1
            if entry.start != nil, entry.end != nil {
                if entry.has(.uuid) { byUUID.append(entry) }
                if entry.has(.process) { byProcess.append(entry) }
            }
            if entry.has(.incident) { byIncident.append(entry) }
        }
        var edges = SpillSort<CrashLedgerEdge>(budget: share, directory: directory) { _, _ in false }
        Self.timeEdges(byUUID, byUUID: true) { edges.append($0) }
        Self.timeEdges(byProcess, byUUID: false) { edges.append($0) }
        Self.incidentEdges(byIncident) { edges.append($0) }
        failed = failed || byUUID.failed || byProcess.failed || byIncident.failed
        byUUID = SpillSort(budget: 0, directory: nil, by: Self.timeOrder(.uuid))
        byProcess = SpillSort(budget: 0, directory: nil, by: Self.timeOrder(.process))
        byIncident = SpillSort(budget: 0, directory: nil, by: Self.incidentOrder)

        // Components: each root the least position in it.
        var parent = (0..<count).map { Int32(truncatingIfNeeded: $0) }
        var linked = [Bool](repeating: false, count: count)
        func root(_ position: Int) -> Int {
            var current = position
            while Int(parent[current]) != current {
                parent[current] = parent[Int(parent[current])]
                current = Int(parent[current])
            }
            return current
        }
        for edge in edges {
            guard parent.indices.contains(edge.a), parent.indices.contains(edge.b) else { continue }
            linked[edge.a] = true
            linked[edge.b] = true
            let left = root(edge.a)
            let right = root(edge.b)
            if left != right { parent[max(left, right)] = Int32(truncatingIfNeeded: min(left, right)) }
        }
        var componentEdges = SpillSort<CrashLedgerEdge>(budget: share, directory: directory, by: Self.componentOrder)
        for edge in edges {
            guard parent.indices.contains(edge.a), parent.indices.contains(edge.b) else { continue }
            var edge = edge
            edge.component = root(edge.a)
            componentEdges.append(edge)
        }
        failed = failed || edges.failed
        edges = SpillSort(budget: 0, directory: nil) { _, _ in false }

        let clusterOrder: (CrashLedgerCluster, CrashLedgerCluster) -> Bool
        if grouping {
            clusterOrder = CrashLedgerCluster.precedesInGroupingOrder
        } else {
            clusterOrder = { lhs, rhs in lhs.root < rhs.root }
        }
        var clusters = SpillSort<CrashLedgerCluster>(budget: share, directory: directory, by: clusterOrder)
        var components = SpillSort<CrashLedgerEntry>(budget: share, directory: directory) {
            $0.component != $1.component ? $0.component < $1.component : $0.position < $1.position
        }
        forEachInContentOrder { entry in
            guard linked.indices.contains(entry.position), linked[entry.position] else {
                clusters.append(CrashLedgerCluster(members: [entry]))
                return
            }
            var entry = entry
            entry.component = root(entry.position)
            components.append(entry)
        }
        parent = []
        linked = []
        var pairs = componentEdges.makeIterator()
        var pair = pairs.next()
        var members: [CrashLedgerEntry] = []
        func flush() {
            guard let component = members.first?.component else { return }
            var found: [CrashLedgerEdge] = []
            while let edge = pair, edge.component <= component {
                if edge.component == component { found.append(edge) }
                pair = pairs.next()
            }
            for cluster in Self.clusters(of: members, edges: found) { clusters.append(cluster) }
            members = []
        }
        for entry in components {
            if let first = members.first, first.component != entry.component { flush() }
            members.append(entry)
        }
        flush()
        failed = failed || components.failed || componentEdges.failed
        for cluster in clusters { body(cluster.members) }
        failed = failed || clusters.failed || file.failed
    }

    /// The clusters of one component (its records in position order, its pairs sorted by gap and positions), as
    /// `CrashLedger.clusters()` makes them.
    static func clusters(of records: [CrashLedgerEntry], edges: [CrashLedgerEdge]) -> [CrashLedgerCluster] {
        func local(_ position: Int) -> Int? {
            var low = 0
            var high = records.count
            while low < high {
                let middle = (low + high) / 2
                if records[middle].position < position { low = middle + 1 } else { high = middle }
            }
            return low < records.count && records[low].position == position ? low : nil
        }
        var clusters = VetoingUnionFind(count: records.count)
        for edge in edges {
            guard let a = local(edge.a), let b = local(edge.b) else { continue }
            clusters.join(a, b) { x, y in CrashLedgerEntry.links(records[x], records[y]) }
        }
        var result: [CrashLedgerCluster] = []
        for index in records.indices where clusters.isRoot(index) {
            var list = clusters.members(index).map { records[$0] }
            if list.count > 1 { list.sort(by: CrashLedgerEntry.richer) }
            result.append(CrashLedgerCluster(members: list))
        }
        return result
    }

    /// By the text of `slot`, then time, then position: the in-memory pass's sort of each binary's dated crashes.
    private static func timeOrder(_ slot: CrashLedgerEntry.Slot) -> (CrashLedgerEntry, CrashLedgerEntry) -> Bool {
        { a, b in
            let key = CrashLedgerEntry.compare(a.text(slot), b.text(slot))
            if key != 0 { return key < 0 }
            let (aStart, bStart) = (a.start ?? 0, b.start ?? 0)
            if aStart != bStart { return aStart < bStart }
            return a.position < b.position
        }
    }

    private static func incidentOrder(_ a: CrashLedgerEntry, _ b: CrashLedgerEntry) -> Bool {
        let key = CrashLedgerEntry.compare(a.text(.incident), b.text(.incident))
        if key != 0 { return key < 0 }
        return a.position < b.position
    }

    private static func componentOrder(_ a: CrashLedgerEdge, _ b: CrashLedgerEdge) -> Bool {
        if a.component != b.component { return a.component < b.component }
        if a.gap != b.gap { return a.gap < b.gap }
        if a.a != b.a { return a.a < b.a }
        return a.b < b.b
    }

    /// The pairs of `sorted` (by key and time) that link.
    ///
    /// Each crash is compared with the later ones of its key that start within its end and the window, at most
    /// `CrashLedger.maxCandidates` of them, as in memory; a crash waits only while later ones may still be its
    /// candidates.
    private static func timeEdges(
        _ sorted: SpillSort<CrashLedgerEntry>,
        byUUID: Bool,
        _ emit: (CrashLedgerEdge) -> Void
    ) {
        let slot: CrashLedgerEntry.Slot = byUUID ? .uuid : .process
        var waiting: [(entry: CrashLedgerEntry, compared: Int)] = []
        for b in sorted {
            if let first = waiting.first, !first.entry.same(slot, as: b) { waiting.removeAll(keepingCapacity: true) }
            var kept = 0
            for index in waiting.indices {
                let a = waiting[index].entry
                guard let end = a.end, let start = b.start, start <= end + CrashLedger.window,
                    waiting[index].compared < CrashLedger.maxCandidates
                else { continue }
                // Pairs that both have a UUID are the UUID pass's; the name pass takes the others.
                if byUUID || !a.has(.uuid) || !b.has(.uuid), CrashLedgerEntry.links(a, b) {
                    let (first, second) = (a.position, b.position)
                    emit(
                        CrashLedgerEdge(
                            gap: CrashLedgerEntry.gap(a, b),
                            a: min(first, second),
                            b: max(first, second)
                        )
                    )
                }
                waiting[kept] = (a, waiting[index].compared + 1)
                kept += 1
            }
            waiting.removeLast(waiting.count - kept)
            waiting.append((b, 0))
        }
    }

    /// The pairs of `sorted` (by incident id and position) that link: each crash with the next
    /// `CrashLedger.maxCandidates` of its incident id.
    private static func incidentEdges(_ sorted: SpillSort<CrashLedgerEntry>, _ emit: (CrashLedgerEdge) -> Void) {
        var waiting: [CrashLedgerEntry] = []
        var head = 0
        for b in sorted {
            if head < waiting.count, !waiting[head].same(.incident, as: b) {
                waiting.removeAll(keepingCapacity: true)
                head = 0
            }
            while waiting.count - head > CrashLedger.maxCandidates { head += 1 }
            for a in waiting[head...] where CrashLedgerEntry.links(a, b) {
                emit(CrashLedgerEdge(gap: -1, a: a.position, b: b.position))
            }
            waiting.append(b)
            if head > 4096, head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
        }
    }
}
