/// A value an external sort writes to disk and reads back.
protocol SpillItem {
    /// About the bytes the item takes in memory, to know when a run is full.
    var spillSize: Int { get }
    func write(to writer: inout SpillWriter)
    /// The item written at the reader's place, nil when the bytes are short or damaged.
    static func read(from reader: inout SpillReader) -> Self?
}

/// One sorted run on disk: the chunks it was written in, no item straddling two.
struct SpillRun: Sendable {
    var chunks: [Range<Int>] = []
}

/// Writes items as one run, in chunks of about 64 KiB so that a reader holds one chunk at a time.
struct SpillRunWriter {
    static let chunkBytes = 1 << 16
    let file: SpillFile
    private var writer = SpillWriter()
    private var run = SpillRun()

    init(file: SpillFile) {
        self.file = file
    }

    mutating func append(_ item: some SpillItem) {
        item.write(to: &writer)
        if writer.bytes.count >= Self.chunkBytes { flush() }
    }

    private mutating func flush() {
        guard !writer.bytes.isEmpty else { return }
        // A failed write is recorded in the file (`failed`): the run then lacks the chunk.
        if let range = file.append(writer.bytes) { run.chunks.append(range) }
        writer.bytes.removeAll(keepingCapacity: true)
    }

    mutating func finish() -> SpillRun {
        flush()
        return run
    }
}

/// Reads a run back item by item, one chunk in memory at a time.
struct SpillRunReader<Item: SpillItem>: IteratorProtocol {
    let file: SpillFile
    private var chunks: ArraySlice<Range<Int>>
    private var reader = SpillReader([])

    init(file: SpillFile, run: SpillRun) {
        self.file = file
        chunks = run.chunks[...]
    }

    mutating func next() -> Item? {
        while reader.isAtEnd {
            guard let chunk = chunks.popFirst(), let bytes = file.read(chunk) else { return nil }
            reader = SpillReader(bytes)
        }
        guard let item = Item.read(from: &reader) else {
            // Damaged bytes end the run rather than yield garbage.
            chunks = []
            reader = SpillReader([])
            return nil
        }
        return item
    }
}

/// The k-way merge of sorted sequences, read one item at a time.
struct SpillMerge<Item>: IteratorProtocol {
    /// Runs merged at once: each holds a chunk in memory, so more are merged in several passes.
    static var fanIn: Int { 16 }

    private var sources: [AnyIterator<Item>]
    private let precedes: (Item, Item) -> Bool
    private var heap: [(item: Item, source: Int)] = []

    /// The items of `sources` (each sorted by `precedes`) in order; equal items in source order.
    init(_ sources: [AnyIterator<Item>], by precedes: @escaping (Item, Item) -> Bool) {
        self.sources = sources
        self.precedes = precedes
        heap.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            guard let item = source.next() else { continue }
            heap.append((item, index))
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard less(child, parent) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }
    }

    private func less(_ a: Int, _ b: Int) -> Bool {
        if precedes(heap[a].item, heap[b].item) { return true }
        if precedes(heap[b].item, heap[a].item) { return false }
        return heap[a].source < heap[b].source
    }

    private mutating func siftDown() {
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var child = left
            if left + 1 < heap.count, less(left + 1, left) { child = left + 1 }
            guard less(child, parent) else { return }
            heap.swapAt(child, parent)
            parent = child
        }
    }

    mutating func next() -> Item? {
        guard let top = heap.first else { return nil }
        if let next = sources[top.source].next() {
            heap[0] = (next, top.source)
        } else if let last = heap.popLast(), !heap.isEmpty {
            heap[0] = last
        }
        if heap.count > 1 { siftDown() }
        return top.item
    }
}
