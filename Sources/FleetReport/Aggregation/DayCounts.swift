import APMInspectCore

/// Counts by UTC day (days since 1970), keeping the newest `capacity` days; older ones are counted together.
///
/// A day outside the kept ones is older than all of them, for good, so the days kept and their counts do not
/// depend on the order the reports came in.
package struct DayCounts: Sendable, Equatable {
    package let capacity: Int
    package private(set) var counts: [Int: Int] = [:]
    /// Reports on days older than every day kept.
    package private(set) var earlier = 0

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    package mutating func add(day: Int, count: Int = 1) {
        if counts[day] != nil {
            counts[day, default: 0] += count
            return
        }
        if counts.count < capacity {
            counts[day] = count
            return
        }
        guard let oldest = counts.keys.min(), oldest < day else {
            earlier += count
            return
        }
        earlier += counts.removeValue(forKey: oldest) ?? 0
        counts[day] = count
    }

    /// The UTC day of a time, or nil for one out of any calendar's range.
    package static func day(ofSecondsSince1970 seconds: Double) -> Int? {
        guard seconds.isFinite, abs(seconds) < 1e13 else { return nil }
        return Int(exactly: (seconds / 86_400).rounded(.down))
    }

    /// `YYYY-MM-DD` of a day since 1970 (proleptic Gregorian, UTC).
    package static func isoDate(day: Int) -> String {
        CivilDate(daysSince1970: day).isoDate
    }

    /// Days since 1970 of `YYYY-MM-DD`, nil when the text is not such a date.
    package static func day(isoDate text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        let day = CivilDate(year: y, month: m, day: d).daysSince1970
        return isoDate(day: day) == text ? day : nil
    }
}
