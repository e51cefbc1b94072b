/// The member orders of recently written key sequences: objects of one shape repeat their keys (a report's
/// frames, a HAR's initiator stacks), so each sequence is sorted once, not once per object.
struct KeyOrderCache {
    private var recent: [(keys: [String], order: [Int])] = []
    /// The most keys, and key bytes, of a sequence kept: Apple's objects have tens of short keys.
    static let maxKeys = 256
    static let maxKeyBytes = 8192

    /// How many key sequences are kept.
    var count: Int { recent.count }
    private var next = 0

    /// The positions of the `count` keys in written order (``JSONTree/sortedKeyOrder(_:)``), or nil when they are
    /// to be written as they come (``JSONTree/isStrictlyOrdered(count:key:)``).
    mutating func order(count: Int, key: (Int) -> String) -> [Int]? {
        if JSONTree.isStrictlyOrdered(count: count, key: key) { return nil }
        for entry in recent where entry.keys.count == count {
            var same = true
            // Byte for byte: `==` takes `é` and `e\u{301}` for one key, yet they sort apart (C3 A9 after `k`, 65 CC 81
            // before it), so a sequence in one spelling must not take the order of the other.
            for k in 0..<count where JSONTree.compareUTF8(entry.keys[k], key(k)) != 0 {
                same = false
                break
            }
            if same { return entry.order }
        }
        let keys = (0..<count).map(key)
        let order = JSONTree.sortedKeyOrder(keys)
        // Kept from one document to the next (``withCurrentThread(_:)``): only small key sequences, so what a
        // hostile document leaves here is bounded (64 of them).
        guard count <= Self.maxKeys, keys.reduce(0, { $0 + $1.utf8.count }) <= Self.maxKeyBytes else { return order }
        if recent.count < 64 {
            recent.append((keys, order))
        } else {
            recent[next] = (keys, order)
            next = (next + 1) % recent.count
        }
        return order
    }
}
