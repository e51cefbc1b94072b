/// Sorts more items than memory should hold: past `budget` bytes the items in memory are sorted and written to a
/// private temporary file as a run, and the runs are merged when the items are read.
///
/// Below the budget nothing touches the disk. When the file cannot be made the items stay in memory (a sort that
/// spills is only ever slower, never different); a write or read that fails is recorded as ``failed``.
struct SpillSort<Item: SpillItem>: Sequence {
    let budget: Int
    let directory: String?
    let precedes: (Item, Item) -> Bool
    private var pending: [Item] = []
    private var pendingBytes = 0
    private var file: SpillFile?
    private var runs: [SpillRun] = []
    private var cannotSpill = false

    init(budget: Int, directory: String?, by precedes: @escaping (Item, Item) -> Bool) {
        self.budget = budget
        self.directory = directory
        self.precedes = precedes
    }

    /// True when a run could not be written or read back whole.
    var failed: Bool { file?.failed ?? false }

    mutating func append(_ item: Item) {
        pending.append(item)
        pendingBytes += item.spillSize
        if pendingBytes > budget, !cannotSpill { spill() }
    }

    private mutating func spill() {
        if file == nil { file = try? SpillFile(directory: directory) }
        guard let file else {
            cannotSpill = true
            return
        }
        pending.sort(by: precedes)
        var writer = SpillRunWriter(file: file)
        for item in pending { writer.append(item) }
        runs.append(writer.finish())
        pending = []
        pendingBytes = 0
    }

    /// Every item appended, in order (can be read more than once).
    func makeIterator() -> SpillMerge<Item> {
        let memory = pending.sorted(by: precedes)
        guard let file, !runs.isEmpty else { return SpillMerge([AnyIterator(memory.makeIterator())], by: precedes) }
        return Self.merge(Self.reduce(runs, file: file, by: precedes), file: file, memory: memory, by: precedes)
    }

    /// Fewer than ``SpillMerge/fanIn`` runs holding the items of `runs`, merged in passes written to `file`.
    static func reduce(_ runs: [SpillRun], file: SpillFile, by precedes: @escaping (Item, Item) -> Bool) -> [SpillRun] {
        var runs = runs
        while runs.count >= SpillMerge<Item>.fanIn {
            var merged: [SpillRun] = []
            for start in stride(from: 0, to: runs.count, by: SpillMerge<Item>.fanIn) {
                let group = runs[start..<Swift.min(start + SpillMerge<Item>.fanIn, runs.count)].map { run in
                    AnyIterator(SpillRunReader<Item>(file: file, run: run))
                }
                var items = SpillMerge(group, by: precedes)
                var writer = SpillRunWriter(file: file)
                while let item = items.next() { writer.append(item) }
                merged.append(writer.finish())
            }
            runs = merged
        }
        return runs
    }

    /// The items of sorted `runs` of `file` and of the sorted `memory`, in order.
    static func merge(
        _ runs: [SpillRun],
        file: SpillFile,
        memory: [Item],
        by precedes: @escaping (Item, Item) -> Bool
    ) -> SpillMerge<Item> {
        var sources = runs.map { AnyIterator(SpillRunReader<Item>(file: file, run: $0)) }
        if !memory.isEmpty { sources.append(AnyIterator(memory.makeIterator())) }
        return SpillMerge(sources, by: precedes)
    }
}
