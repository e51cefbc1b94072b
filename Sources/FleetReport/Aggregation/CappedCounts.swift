/// Counts by value, keeping at most `capacity` values; what falls outside is counted, not kept.
///
/// The values kept are the greatest under `order` (for versions: the newest), so that the result does not depend
/// on the order the reports came in: a value outside the kept ones is smaller than all of them, for good.
public struct CappedCounts: Sendable, Equatable {
    /// One value and how many reports had it.
    public struct Entry: Sendable, Equatable, Codable {
        public var value: String
        public var count: Int
    }

    public let capacity: Int
    private let order: @Sendable (String, String) -> Bool
    private(set) var counts: [String: Int] = [:]
    /// Reports whose value was not kept.
    public private(set) var others = 0
    /// The smallest value kept, once the capacity is reached.
    private var floor: String?

    package init(capacity: Int, order: @escaping @Sendable (String, String) -> Bool = { $0 < $1 }) {
        self.capacity = max(1, capacity)
        self.order = order
    }

    public static func == (lhs: CappedCounts, rhs: CappedCounts) -> Bool {
        lhs.counts == rhs.counts && lhs.others == rhs.others
    }

    /// Counts `value`; past the cap, new values go to the others count.
    public mutating func add(_ value: String, count: Int = 1) {
        if counts[value] != nil {
            counts[value, default: 0] += count
            return
        }
        if counts.count < capacity {
            counts[value] = count
            if counts.count == capacity { floor = counts.keys.min(by: order) }
            return
        }
        guard let floor, order(floor, value) else {
            others += count
            return
        }
        // The new value outranks the smallest kept one, which leaves with its reports.
        others += counts.removeValue(forKey: floor) ?? 0
        counts[value] = count
        self.floor = counts.keys.min(by: order)
    }

    /// Every kept value, most reports first, then by value.
    package var entries: [Entry] {
        counts.map { Entry(value: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.value.utf8.lexicographicallyPrecedes($1.value.utf8)
        }
    }

    /// True when nothing was counted.
    public var isEmpty: Bool { counts.isEmpty && others == 0 }
}
