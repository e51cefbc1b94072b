import APMInspectCore
import Foundation

/// Converts PowerLog's raw timestamps to wall-clock time, row by row.
///
/// UTC = raw + the `system` offset of the `TimeOffset` row with the greatest raw timestamp at or before the row
/// (the first offset for rows older than all of them); taking the latest offset for every row, as some tools do,
/// is minutes to days wrong. The local UTC offset comes from the time-zone row in effect at that raw time, its IANA
/// name preferred (DST-correct) over the stored `SecondsFromGMT`.
struct PowerLogClock {
    struct Offset {
        var raw: Double
        var system: Double
    }

    struct Zone {
        var raw: Double
        var name: String?
        var secondsFromGMT: Int?
    }

    private(set) var offsets: [Offset]
    private(set) var zones: [Zone]
    private let offsetStamps: [Double]
    private let zoneStamps: [Double]
    private var zoneCache: [String: TimeZone] = [:]

    init(offsets: [Offset], zones: [Zone]) {
        self.offsets = offsets.sorted { $0.raw < $1.raw }
        self.zones = zones.sorted { $0.raw < $1.raw }
        offsetStamps = self.offsets.map(\.raw)
        zoneStamps = self.zones.map(\.raw)
        for name in Set(self.zones.compactMap(\.name)) where Self.isZoneName(name) {
            if let zone = TimeZone(identifier: name) { zoneCache[name] = zone }
        }
    }

    /// The offset in effect at `raw`.
    func offset(at raw: Double) -> Double {
        guard let first = offsets.first else { return 0 }
        guard let index = lastIndex(in: offsetStamps, atOrBefore: raw) else { return first.system }
        return offsets[index].system
    }

    /// `raw` on both clocks.
    func time(_ raw: Double) -> PowerLogTime {
        let offset = offset(at: raw)
        let utc = raw + offset
        // The wall clock is built when asked for, from the local offset: see PowerLogTime.
        return PowerLogTime(raw: raw, clockOffset: offset, utcOffset: localOffset(raw: raw, utc: utc))
    }

    /// Seconds east of UTC on the device at that moment (0 without a time-zone table).
    func localOffset(raw: Double, utc: Double) -> Int {
        guard let first = zones.first else { return 0 }
        let zone = lastIndex(in: zoneStamps, atOrBefore: raw).map { zones[$0] } ?? first
        if let name = zone.name, let timeZone = zoneCache[name], utc.isFinite, abs(utc) < 1e12 {
            return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: utc))
        }
        if let seconds = zone.secondsFromGMT, (-18 * 3600...18 * 3600).contains(seconds) { return seconds }
        return 0
    }

    /// True for names shaped like IANA zones (`America/Toronto`, `Etc/GMT+5`): the name comes from the file and
    /// becomes a path in the system's zone database, so `..` and absolute paths are refused.
    static func isZoneName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 64, !name.hasPrefix("/"), !name.contains("..") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A)
                || (scalar.value >= 0x61 && scalar.value <= 0x7A) || "/_+-".unicodeScalars.contains(scalar)
        }
    }

    /// The IANA name in effect at the end of the history.
    var latestZoneName: String? { zones.last(where: { $0.name != nil })?.name }

    private func lastIndex(in sorted: [Double], atOrBefore value: Double) -> Int? {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : low - 1
    }
}
