/// The member orders of recently written key sequences: objects of one shape repeat their keys (a report's
/// frames, a HAR's initiator stacks), so each sequence is sorted once, not once per object.
struct KeyOrderCache {
    private var recent: [(keys: [String], order: [Int])] = []
    private var next = 0

    /// The positions of the `count` keys in written order (``JSONTree/sortedKeyOrder(_:)``), or nil when they are
    /// to be written as they come (``JSONTree/isStrictlyOrdered(count:key:)``).
    mutating func order(count: Int, key: (Int) -> String) -> [Int]? {
        if JSONTree.isStrictlyOrdered(count: count, key: key) { return nil }
        for entry in recent where entry.keys.count == count {
            var same = true
            // `==` as the sort compares (canonical equivalence); literal keys compare by identity first.
            for k in 0..<count where entry.keys[k] != key(k) {
                same = false
                break
            }
            if same { return entry.order }
        }
        let keys = (0..<count).map(key)
        let order = JSONTree.sortedKeyOrder(keys)
        if recent.count < 64 {
            recent.append((keys, order))
        } else {
            recent[next] = (keys, order)
            next = (next + 1) % recent.count
        }
        return order
    }
}
