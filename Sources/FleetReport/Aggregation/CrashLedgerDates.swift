import APMInspectCore
import ByteAccess

/// The distinct crash times of a ledger, each as its fields in a few bytes.
///
/// Crash times are nearly all distinct, so a table of `AppleTimestamp` values (about 80 bytes each, again as a
/// dictionary key, and the dictionary's slots) grew by some 200 bytes a crash; as bytes in ``InternedTexts`` one
/// costs about 90. Equal timestamps get one id, as they did with the dictionary (a zero is written as +0).
struct CrashLedgerDates {
    private var texts = InternedTexts()
    /// Bytes before the fraction digits: the seconds' bits and seven integer fields, eight bytes each.
    private static let fixedCount = 64

    var count: Int { texts.count }

    mutating func intern(_ date: AppleTimestamp) -> Int32 {
        texts.intern(bytes: Self.bytes(of: date))
    }

    /// The date as the ledger keeps it: the seconds' bits, seven integer fields, then the fraction digits.
    static func bytes(of date: AppleTimestamp) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.fixedCount + date.fractionDigits.utf8.count)
        let seconds = date.secondsSince1970 == 0 ? 0 : date.secondsSince1970
        Self.append(seconds.bitPattern, to: &bytes)
        for field in [date.utcOffsetSeconds, date.year, date.month, date.day, date.hour, date.minute, date.second] {
            Self.append(UInt64(bitPattern: Int64(field)), to: &bytes)
        }
        bytes += date.fractionDigits.utf8
        return bytes
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    private static func field(_ bytes: BorrowedBytes, _ index: Int) -> UInt64 {
        bytes.unsigned(at: index * 8, size: 8, littleEndian: true) ?? 0
    }

    /// The timestamp of `id`, nil for an id not given out.
    func date(_ id: Int32) -> AppleTimestamp? {
        guard id >= 0, Int(id) < texts.count else { return nil }
        return texts.withBytes(Int(id)) { Self.date(from: $0) }
    }

    /// The bytes of `id` as ``bytes(of:)`` made them, nil for an id not given out.
    func bytes(_ id: Int32) -> [UInt8]? {
        guard id >= 0, Int(id) < texts.count else { return nil }
        return texts.withBytes(Int(id)) { $0.array }
    }

    /// The timestamp ``bytes(of:)`` made, nil for bytes too short to be one.
    static func date(from bytes: BorrowedBytes) -> AppleTimestamp? {
        guard bytes.count >= Self.fixedCount else { return nil }
        func integer(_ index: Int) -> Int { Int(truncatingIfNeeded: Int64(bitPattern: Self.field(bytes, index))) }
        return AppleTimestamp(
            secondsSince1970: Double(bitPattern: Self.field(bytes, 0)),
            utcOffsetSeconds: integer(1),
            date: CivilDate(year: integer(2), month: integer(3), day: integer(4)),
            hour: integer(5),
            minute: integer(6),
            second: integer(7),
            fractionDigits: bytes.slice(from: Self.fixedCount).string
        )
    }

    /// The instant of ``bytes(of:)``'s bytes (0 when too short).
    static func seconds(from bytes: BorrowedBytes) -> Double {
        bytes.count >= 8 ? Double(bitPattern: Self.field(bytes, 0)) : 0
    }

    private func seconds(_ id: Int) -> Double {
        texts.withBytes(id) { Self.seconds(from: $0) }
    }

    /// About the bytes the table takes.
    var approximateBytes: Int { texts.approximateBytes }

    /// Each date's place by instant, then by its text, by id: ids follow arrival, ranks do not.
    func ranks() -> [Int] {
        let order = (0..<texts.count).sorted { lhs, rhs in
            let left = seconds(lhs)
            let right = seconds(rhs)
            if left != right { return left < right }
            guard let a = date(Int32(truncatingIfNeeded: lhs)), let b = date(Int32(truncatingIfNeeded: rhs)) else {
                return false
            }
            return a.iso8601.utf8.lexicographicallyPrecedes(b.iso8601.utf8)
        }
        var ranks = [Int](repeating: 0, count: order.count)
        for (position, index) in order.enumerated() { ranks[index] = position }
        return ranks
    }
}
