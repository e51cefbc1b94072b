/// Clusters of crash copies, grown only when every pair across two clusters links.
///
/// Linking is not transitive past a veto (``CrashLedger``), so a union checks all pairs of the two clusters first;
/// each root threads its members through `next` so that check walks lists instead of scanning every element. The
/// in-memory ledger and the spilled one (``SpilledCrashLinking``) resolve their components with this one structure,
/// which keeps their clusters the same.
struct VetoingUnionFind {
    private var parent: [Int]
    private var next: [Int]
    private var tail: [Int]

    /// `count` singletons, 0 to `count - 1`.
    init(count: Int) {
        let count = Swift.max(0, count)
        parent = Array(0..<count)
        next = [Int](repeating: -1, count: count)
        tail = Array(0..<count)
    }

    mutating func root(_ element: Int) -> Int {
        var current = element
        while parent[current] != current {
            parent[current] = parent[parent[current]]
            current = parent[current]
        }
        return current
    }

    func isRoot(_ element: Int) -> Bool { parent[element] == element }

    /// True when the root's cluster holds only the root.
    func isSingleton(_ root: Int) -> Bool { next[root] < 0 }

    /// The members of `root`'s cluster, the root first, then in the order they joined.
    func members(_ root: Int) -> [Int] {
        var list: [Int] = []
        var cursor = root
        while cursor >= 0 {
            list.append(cursor)
            cursor = next[cursor]
        }
        return list
    }

    /// Joins the clusters of `a` and `b` (the lower root stays the root) when `links` holds for every pair of their
    /// members; nothing when they are one cluster already or one pair does not link.
    mutating func join(_ a: Int, _ b: Int, when links: (Int, Int) -> Bool) {
        let left = root(a)
        let right = root(b)
        guard left != right else { return }
        let leftMembers = members(left)
        let rightMembers = members(right)
        guard leftMembers.allSatisfy({ x in rightMembers.allSatisfy { y in links(x, y) } }) else { return }
        let (keep, drop) = left < right ? (left, right) : (right, left)
        parent[drop] = keep
        next[tail[keep]] = drop
        tail[keep] = tail[drop]
    }
}
