/// Counts by value, keeping at most `capacity` values; what falls outside is counted, not kept.
///
/// The values kept are the greatest under `order` (for versions: the newest), so that the result does not depend
/// on the order the reports came in: a value outside the kept ones is smaller than all of them, for good.
package struct CappedCounts: Sendable, Equatable {
    /// One value and how many reports had it.
    package struct Entry: Sendable, Equatable, Codable {
        package var value: String
        package var count: Int
    }

    package let capacity: Int
    private let order: @Sendable (String, String) -> Bool
    private(set) var counts: [String: Int] = [:]
    /// Reports whose value was not kept.
    package private(set) var others = 0
    /// Hashes (FNV-1a, 64 bits) of the distinct values not kept, at most ``maxHiddenValues`` of them.
    private var hidden: Set<UInt64> = []
    /// Distinct values not kept that are told apart: past this many, further ones are not counted.
    package static let maxHiddenValues = 4096

    /// Distinct values not kept (those reports are in ``others``); a lower bound past 4,096 of them.
    package var othersValues: Int { hidden.count }
    /// The smallest value kept, once the capacity is reached.
    private var floor: String?

    package init(capacity: Int, order: @escaping @Sendable (String, String) -> Bool = { $0 < $1 }) {
        self.capacity = max(1, capacity)
        self.order = order
    }

    package static func == (lhs: CappedCounts, rhs: CappedCounts) -> Bool {
        lhs.counts == rhs.counts && lhs.others == rhs.others && lhs.hidden == rhs.hidden
    }

    /// Counts `value`; past the cap, new values go to the others count.
    package mutating func add(_ value: String, count: Int = 1) {
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
            hide(value)
            return
        }
        // The new value outranks the smallest kept one, which leaves with its reports: a value that leaves never
        // comes back (every later value kept outranks it), so the hidden ones are counted once each.
        others += counts.removeValue(forKey: floor) ?? 0
        hide(floor)
        counts[value] = count
        self.floor = counts.keys.min(by: order)
    }

    private mutating func hide(_ value: String) {
        guard hidden.count < Self.maxHiddenValues else { return }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in value.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hidden.insert(hash)
    }

    /// Every kept value, most reports first, then by value.
    package var entries: [Entry] {
        counts.map { Entry(value: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.value.utf8.lexicographicallyPrecedes($1.value.utf8)
        }
    }

    /// True when nothing was counted.
    package var isEmpty: Bool { counts.isEmpty && others == 0 }
}
