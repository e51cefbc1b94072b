import APMInspectCore

/// Every crash of a fleet report as a small fixed-size record, linked at the end into the crashes they are.
///
/// One crash often arrives three times: as a KSCrash report, a MetricKit diagnostic and Apple's `.ips`. When one of
/// them is unsymbolicated its signature is made of addresses and the others' of names, so the copies would land in
/// different groups: they are linked before they are grouped. Linking needs every crash of a window at hand, and
/// the result must not depend on the order reports arrive in (several workers, Spark and Ray partitions), so each
/// crash is kept as a record of interned ids (about 190 bytes, plus its path and date when they are new) and the
/// clusters are resolved once, by sorting and a union-find, when the summary is made.
///
/// Two crashes link when they carry the same incident identifier (Apple's `Incident Identifier` / `incident_id`,
/// KSCrash's report id: an `.ips` and its text translation, a report and its `.synced` copy are one crash, whatever
/// their source and time) and nothing they both know differs: main binary UUID, bundle id, device model, pid and top
/// frames, as below, and the exception (type and signal). Otherwise they link when all of these hold:
/// - they come from different sources (`crashReport`, `kscrash`, `metrickit`): a cluster holds one report of each
///   but for copies of one incident;
/// - their main binary has the same UUID, or, when one of them has none, the same process name;
/// - their bundle ids, device models and pids are equal where both have one;
/// - both are dated and their times are within `window` seconds, a MetricKit payload's range counting as the
///   time (a crash inside the range, give or take the window, matches);
/// - the top `FleetEvent.maxLinkFrames` crashed-thread frames agree by image UUID and offset wherever both have
///   them (one that differs vetoes the link);
/// - and, when one of them has only a range, both name the same pid (a day-long range is too wide on its own).
///
/// Linking is not transitive past a veto: two clusters merge only when every pair across them links.
///
/// `scan`'s backend formats link with this same ledger to export each crash once (its richest report).
package struct CrashLedger {
    /// Seconds apart two crash times may be and still be one crash.
    package static let window = 60.0
    /// Later records compared with one record in its binary's time order: bounds the work when a range covers a
    /// great many crashes of one app.
    static let maxCandidates = 4096

    package struct Record: Sendable {
        var key: Int32
        var signature: Int32
        var source: Int32
        var exception: Int32
        var topFrame: Int32
        var bundleId: Int32
        var process: Int32
        var appVersion: Int32
        var appBuild: Int32
        var osVersion: Int32
        var device: Int32
        var date: Int32
        var uuid: Int32
        var file: Int32
        var grouping: Int32
        var incident: Int32
        var pid: Int64?
        var start: Double?
        var end: Double?
        var frames: (FrameKey?, FrameKey?, FrameKey?)
        var symbolicatedFrames: Int32
        var frameCount: Int32
        var threadCount: Int32
    }

    struct FrameKey: Equatable, Sendable {
        var image: Int32
        var offset: UInt64
    }

    /// One crash as counted: its records, the richest first.
    package struct Cluster: Sendable {
        /// Indices into the records, in the order they were added.
        package var members: [Int]
    }

    /// Bytes of records and texts held in memory before they are written out as a sorted run (2 MiB: about
    /// 5,000 crashes).
    ///
    /// Also the memory each step of the linking of a ledger that spilled sorts in. Tests set a tiny one to make
    /// every path spill.
    package static let defaultSpillThreshold = 2 << 20

    package init(spillThreshold: Int = CrashLedger.defaultSpillThreshold, spillDirectory: String? = nil) {
        self.spillThreshold = max(1, spillThreshold)
        self.spillDirectory = spillDirectory
    }

    /// The records in memory: every crash, until the ledger spills; then those added since its last run.
    private(set) var records: [Record] = []
    /// Every text of the records (paths, signatures, ids): most are new with each report, so kept as bytes.
    private(set) var texts = InternedTexts()
    private(set) var dates = CrashLedgerDates()
    /// Rules' matches are few (a rule's, not a crash's): kept for every run.
    private(set) var groupings: [GroupingMatch] = []
    private var groupingIds: [GroupingMatch: Int32] = [:]

    let spillThreshold: Int
    /// Where the runs' file is made (`TMPDIR`, else `/tmp`, when nil): never beside the inputs.
    let spillDirectory: String?
    /// The runs written so far, each sorted in content order, and their file.
    private(set) var spill: (file: SpillFile, runs: [SpillRun])?
    /// Records written out in runs.
    private(set) var spilledCount = 0
    /// Set when the runs' file cannot be made: the ledger then keeps every record in memory, as before.
    private var cannotSpill = false
    /// The form each non-ASCII text was first seen in, for every text canonically equal to it, across runs: the
    /// runs' bytes must be equal where one table's ids would be (see `InternedTexts.intern(_:)`).
    private var unicodeForms: [String: String] = [:]

    var isEmpty: Bool { count == 0 }
    /// Crashes added so far.
    package var count: Int { spilledCount + records.count }
    /// True when part of the records were written to a temporary file.
    package var hasSpilled: Bool { spill != nil }

    private mutating func intern(_ text: String?) -> Int32 {
        guard let text else { return -1 }
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return texts.intern(text) }
        if let form = unicodeForms[text] { return texts.intern(form) }
        let form = InternedTexts.asciiForm(of: text) ?? text
        unicodeForms[text] = form
        return texts.intern(form)
    }

    private mutating func intern(_ date: AppleTimestamp?) -> Int32 {
        guard let date else { return -1 }
        return dates.intern(date)
    }

    private mutating func intern(_ grouping: GroupingMatch?) -> Int32 {
        guard let grouping else { return -1 }
        if let id = groupingIds[grouping] { return id }
        let id = Int32(truncatingIfNeeded: groupings.count)
        groupings.append(grouping)
        groupingIds[grouping] = id
        return id
    }

    private static func clamped(_ value: Int) -> Int32 { Int32(clamping: value) }

    package mutating func add(_ crash: FleetEvent.Crash, file: String) {
        let context = crash.context
        let link = crash.link
        var frames: [FrameKey?] = link.frames.prefix(FleetEvent.maxLinkFrames).map { frame in
            frame.map { FrameKey(image: intern($0.imageUUID), offset: $0.offset) }
        }
        while frames.count < 3 { frames.append(nil) }
        var start = link.start
        var end = link.end
        if let first = start, let last = end, first.isFinite, last.isFinite, first <= last {
            start = first
            end = last
        } else {
            start = nil
            end = nil
        }
        records.append(
            Record(
                key: intern(crash.grouping?.signature ?? crash.signature),
                signature: intern(crash.signature),
                source: intern(crash.source),
                exception: intern(crash.exception),
                topFrame: intern(crash.topFrame),
                bundleId: intern(context.bundleId.flatMap { $0.isEmpty ? nil : $0 }),
                process: intern(context.process.flatMap { $0.isEmpty ? nil : $0 }),
                appVersion: intern(context.appVersion),
                appBuild: intern(context.appBuild),
                osVersion: intern(context.osVersion),
                device: intern(context.device),
                date: intern(context.date),
                uuid: intern(context.binaryUUID),
                file: intern(file),
                grouping: intern(crash.grouping),
                incident: intern(link.incidentId),
                pid: link.pid,
                start: start,
                end: end,
                frames: (frames[0], frames[1], frames[2]),
                symbolicatedFrames: Self.clamped(link.symbolicatedFrames),
                frameCount: Self.clamped(link.frameCount),
                threadCount: Self.clamped(link.threadCount)
            )
        )
        if !cannotSpill, approximateBytes > spillThreshold { spillRun() }
    }

    /// About the bytes the records in memory take with their texts and dates.
    private var approximateBytes: Int {
        records.capacity * MemoryLayout<Record>.stride + texts.approximateBytes + dates.approximateBytes
    }

    /// Writes the records in memory out as one run sorted in content order, and empties the tables.
    private mutating func spillRun() {
        if spill == nil {
            guard let file = try? SpillFile(directory: spillDirectory) else {
                cannotSpill = true
                return
            }
            spill = (file, [])
        }
        guard let file = spill?.file else { return }
        var writer = SpillRunWriter(file: file)
        for entry in sortedEntries() { writer.append(entry) }
        spill?.runs.append(writer.finish())
        spilledCount += records.count
        records = []
        texts = InternedTexts()
        dates = CrashLedgerDates()
    }

    package func string(_ id: Int32) -> String? {
        texts.string(id)
    }

    /// The record as the crash it was made from (its link facts left out) and its file.
    func crash(_ index: Int) -> (crash: FleetEvent.Crash, file: String) {
        let record = records[index]
        let context = FleetEvent.Context(
            bundleId: string(record.bundleId),
            process: string(record.process),
            appVersion: string(record.appVersion),
            appBuild: string(record.appBuild),
            osVersion: string(record.osVersion),
            device: string(record.device),
            date: dates.date(record.date),
            binaryUUID: string(record.uuid)
        )
        var crash = FleetEvent.Crash(
            signature: string(record.signature) ?? "?",
            source: string(record.source) ?? "?",
            exception: string(record.exception) ?? "?",
            topFrame: string(record.topFrame),
            context: context
        )
        if record.grouping >= 0, Int(record.grouping) < groupings.count {
            crash.grouping = groupings[Int(record.grouping)]
        }
        return (crash, string(record.file) ?? "?")
    }

    /// The source (`crashReport`, `kscrash`, `metrickit`) and file a record was added with.
    package func origin(_ index: Int) -> (source: String, file: String)? {
        guard records.indices.contains(index) else { return nil }
        let record = records[index]
        return (string(record.source) ?? "?", string(record.file) ?? "?")
    }

    /// True when the record's time is a range (a MetricKit payload's), not an instant.
    func isRanged(_ index: Int) -> Bool {
        let record = records[index]
        guard let start = record.start, let end = record.end else { return false }
        return end > start
    }

    // MARK: Resolution

    /// The crashes: each record in exactly one cluster, the clusters in an order that depends on the records alone.
    package func clusters() -> [Cluster] {
        guard !records.isEmpty else { return [] }
        let ranks = stringRanks()
        let dateRanks = dates.ranks()
        let groupingRanks = groupingRanks()
        // Every record's place in an order made of its content alone: ties past this are exact copies.
        let order = records.indices.sorted {
            precedes(records[$0], records[$1], ranks: ranks, dateRanks: dateRanks, groupingRanks: groupingRanks)
        }
        var rank = [Int](repeating: 0, count: records.count)
        for (position, index) in order.enumerated() { rank[index] = position }

        var edges = candidateEdges(rank: rank, ranks: ranks)
        edges.sort { $0.gap != $1.gap ? $0.gap < $1.gap : ($0.a != $1.a ? $0.a < $1.a : $0.b < $1.b) }
        // Union-find over canonical positions.
        var clusters = VetoingUnionFind(count: records.count)
        for edge in edges {
            clusters.join(edge.a, edge.b) { x, y in links(records[order[x]], records[order[y]]) }
        }
        var result: [Cluster] = []
        result.reserveCapacity(records.count)
        for position in 0..<records.count where clusters.isRoot(position) {
            var list = clusters.isSingleton(position) ? [order[position]] : clusters.members(position).map { order[$0] }
            if list.count > 1 { list.sort { richer($0, $1, rank: rank, ranks: ranks) } }
            result.append(Cluster(members: list))
        }
        return result
    }

    private struct Edge {
        var gap: Double
        var a: Int
        var b: Int
    }

    /// Pairs that link, found by sorting the dated records of each binary UUID (and of each process name) by time
    /// and comparing each with the later ones within its time and the window.
    private func candidateEdges(rank: [Int], ranks: [Int]) -> [Edge] {
        var edges: [Edge] = []
        for byUUID in [true, false] {
            var keyed: [(key: Int, start: Double, position: Int, index: Int)] = []
            for (index, record) in records.enumerated() {
                guard let start = record.start, record.end != nil else { continue }
                let key = byUUID ? record.uuid : record.process
                guard key >= 0 else { continue }
                keyed.append((ranks[Int(key)], start, rank[index], index))
            }
            keyed.sort {
                if $0.key != $1.key { return $0.key < $1.key }
                if $0.start != $1.start { return $0.start < $1.start }
                return $0.position < $1.position
            }
            for i in keyed.indices {
                let a = records[keyed[i].index]
                guard let end = a.end else { continue }
                var j = i + 1
                var compared = 0
                while j < keyed.count, keyed[j].key == keyed[i].key, keyed[j].start <= end + Self.window,
                    compared < Self.maxCandidates
                {
                    let b = records[keyed[j].index]
                    // Pairs that both have a UUID are the UUID pass's; the name pass takes the others.
                    if byUUID || a.uuid < 0 || b.uuid < 0, links(a, b) {
                        let (first, second) = (keyed[i].position, keyed[j].position)
                        edges.append(Edge(gap: Self.gap(a, b), a: min(first, second), b: max(first, second)))
                    }
                    j += 1
                    compared += 1
                }
            }
        }
        edges += incidentEdges(rank: rank, ranks: ranks)
        return edges
    }

    /// Pairs that carry one incident identifier, dated or not, found by sorting the records by it; they come before
    /// every pair found by time (a gap below 0), being the stronger evidence.
    private func incidentEdges(rank: [Int], ranks: [Int]) -> [Edge] {
        var keyed: [(key: Int, position: Int, index: Int)] = []
        for (index, record) in records.enumerated() where record.incident >= 0 {
            keyed.append((ranks[Int(record.incident)], rank[index], index))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        var edges: [Edge] = []
        for i in keyed.indices {
            var j = i + 1
            while j < keyed.count, keyed[j].key == keyed[i].key, j - i <= Self.maxCandidates {
                if links(records[keyed[i].index], records[keyed[j].index]) {
                    edges.append(Edge(gap: -1, a: keyed[i].position, b: keyed[j].position))
                }
                j += 1
            }
        }
        return edges
    }

    /// How far apart two crash times are: 0 when one lies in the other's range.
    static func gap(_ a: Record, _ b: Record) -> Double {
        guard let aStart = a.start, let aEnd = a.end, let bStart = b.start, let bEnd = b.end else { return .infinity }
        if aEnd < bStart { return bStart - aEnd }
        if bEnd < aStart { return aStart - bEnd }
        return 0
    }

    /// The link rule (see the type's documentation).
    func links(_ a: Record, _ b: Record) -> Bool {
        // One incident id stands in for the source, time and name rules; what the two say differently still vetoes.
        let sameIncident = a.incident >= 0 && a.incident == b.incident
        if !sameIncident {
            guard a.source != b.source else { return false }
        }
        if a.uuid >= 0, b.uuid >= 0 {
            guard a.uuid == b.uuid else { return false }
        } else if !sameIncident {
            guard a.process >= 0, a.process == b.process else { return false }
        }
        if a.bundleId >= 0, b.bundleId >= 0, a.bundleId != b.bundleId { return false }
        if a.device >= 0, b.device >= 0, a.device != b.device { return false }
        if let aPid = a.pid, let bPid = b.pid, aPid != bPid { return false }
        for (left, right) in [(a.frames.0, b.frames.0), (a.frames.1, b.frames.1), (a.frames.2, b.frames.2)] {
            if let left, let right, left != right { return false }
        }
        if sameIncident {
            // Copies of one report name one exception; fixtures and tools that reuse an id across crashes do not.
            guard a.exception == b.exception || texts.equals(a.exception, "?") || texts.equals(b.exception, "?")
            else {
                return false
            }
            return true
        }
        guard Self.gap(a, b) <= Self.window else { return false }
        let aRanged = (a.end ?? 0) > (a.start ?? 0)
        let bRanged = (b.end ?? 0) > (b.start ?? 0)
        if aRanged || bRanged, a.pid == nil || b.pid == nil { return false }
        return true
    }

    /// The richer of two records: more symbolicated crashed-thread frames, then more frames, then more threads,
    /// then the source's rank (Apple's report, KSCrash, MetricKit), then the content order.
    private func richer(_ lhs: Int, _ rhs: Int, rank: [Int], ranks: [Int]) -> Bool {
        let a = records[lhs]
        let b = records[rhs]
        if a.symbolicatedFrames != b.symbolicatedFrames { return a.symbolicatedFrames > b.symbolicatedFrames }
        if a.frameCount != b.frameCount { return a.frameCount > b.frameCount }
        if a.threadCount != b.threadCount { return a.threadCount > b.threadCount }
        let aSource = sourceRank(a.source)
        let bSource = sourceRank(b.source)
        if aSource != bSource { return aSource < bSource }
        return rank[lhs] < rank[rhs]
    }

    /// A source's rank among the richer choices: Apple's report, KSCrash, MetricKit, then anything else.
    private func sourceRank(_ id: Int32) -> Int {
        if texts.equals(id, "crashReport") { return 0 }
        if texts.equals(id, "kscrash") { return 1 }
        if texts.equals(id, "metrickit") { return 2 }
        return 3
    }

    /// Each string's place in byte order, by id: ids follow arrival, ranks do not.
    private func stringRanks() -> [Int] {
        texts.ranks()
    }

    /// `clusters` in the order the fleet report makes groups in.
    ///
    /// By the group key of each one's richest record, then its path (both in byte order), then its index: ranks
    /// stand for the texts, so no `String` is made again per crash.
    package func groupingOrder(_ clusters: [Cluster]) -> [Cluster] {
        let ranks = stringRanks()
        func rank(_ id: Int32) -> Int { id >= 0 && Int(id) < ranks.count ? ranks[Int(id)] : -1 }
        return clusters.sorted { lhs, rhs in
            guard let left = lhs.members.first, let right = rhs.members.first else { return rhs.members.first != nil }
            let a = records[left]
            let b = records[right]
            if a.key != b.key { return rank(a.key) < rank(b.key) }
            if a.file != b.file { return rank(a.file) < rank(b.file) }
            return left < right
        }
    }

    /// Each rule match's place in the order of its texts, by id.
    func groupingRanks() -> [Int] {
        Self.ranks(of: groupings) { lhs, rhs in
            let left = lhs.signature + "\n" + (lhs.title ?? "") + "\n" + String(lhs.rule.line) + lhs.rule.text
            let right = rhs.signature + "\n" + (rhs.title ?? "") + "\n" + String(rhs.rule.line) + rhs.rule.text
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
    }

    private static func ranks<T>(of values: [T], by precedes: (T, T) -> Bool) -> [Int] {
        let order = values.indices.sorted { precedes(values[$0], values[$1]) }
        var ranks = [Int](repeating: 0, count: values.count)
        for (position, index) in order.enumerated() { ranks[index] = position }
        return ranks
    }

    func precedes(
        _ a: Record,
        _ b: Record,
        ranks: [Int],
        dateRanks: [Int],
        groupingRanks: [Int]
    ) -> Bool {
        func rank(_ id: Int32, _ table: [Int]) -> Int { id >= 0 && Int(id) < table.count ? table[Int(id)] : -1 }
        // Paths nearly always decide: the rest is for copies of one file.
        if a.file != b.file { return rank(a.file, ranks) < rank(b.file, ranks) }
        let texts: [(Int32, Int32)] = [
            (a.key, b.key), (a.signature, b.signature), (a.source, b.source),
            (a.exception, b.exception), (a.topFrame, b.topFrame), (a.bundleId, b.bundleId), (a.process, b.process),
            (a.appVersion, b.appVersion), (a.appBuild, b.appBuild), (a.osVersion, b.osVersion),
            (a.device, b.device), (a.uuid, b.uuid), (a.incident, b.incident),
        ]
        for (left, right) in texts where left != right { return rank(left, ranks) < rank(right, ranks) }
        if a.date != b.date { return rank(a.date, dateRanks) < rank(b.date, dateRanks) }
        if a.grouping != b.grouping { return rank(a.grouping, groupingRanks) < rank(b.grouping, groupingRanks) }
        if a.pid != b.pid { return (a.pid ?? .min) < (b.pid ?? .min) }
        if a.start != b.start { return (a.start ?? -.infinity) < (b.start ?? -.infinity) }
        if a.end != b.end { return (a.end ?? -.infinity) < (b.end ?? -.infinity) }
        for (left, right) in [(a.frames.0, b.frames.0), (a.frames.1, b.frames.1), (a.frames.2, b.frames.2)]
        where left != right {
            guard let left else { return true }
            guard let right else { return false }
            if left.image != right.image { return rank(left.image, ranks) < rank(right.image, ranks) }
            return left.offset < right.offset
        }
        if a.symbolicatedFrames != b.symbolicatedFrames { return a.symbolicatedFrames < b.symbolicatedFrames }
        if a.frameCount != b.frameCount { return a.frameCount < b.frameCount }
        return a.threadCount < b.threadCount
    }
}
