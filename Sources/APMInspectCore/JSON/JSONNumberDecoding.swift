import ByteAccess

/// Converts a JSON number's digits to fixed-width integers, or to a `Double`, without making a `String`.
@usableFromInline
enum JSONNumberDecoding {
    @inlinable
    static func uint64(_ bytes: [UInt8], start: Int, end: Int) -> UInt64? {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        return bytes.withBorrowedBytes { uint64($0.slice(start..<end)) }
    }

    @inlinable
    static func int64(_ bytes: [UInt8], start: Int, end: Int) -> Int64? {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        return bytes.withBorrowedBytes { int64($0.slice(start..<end)) }
    }

    /// The digits as an unsigned integer; nil when empty, not all digits, or past `UInt64.max`.
    @inlinable
    static func uint64(_ digits: BorrowedBytes) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        // Up to 19 digits cannot overflow, so they need no overflow checks.
        if digits.count <= 19 {
            var value: UInt64 = 0
            for c in digits {
                let digit = c &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
            }
            return value
        }
        var value: UInt64 = 0
        for c in digits {
            let digit = c &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// The text as a signed integer (optional leading `-`); nil when it is not an integer that fits.
    @inlinable
    static func int64(_ text: BorrowedBytes) -> Int64? {
        guard let first = text.first else { return nil }
        if first == UInt8(ascii: "-") {
            guard let magnitude = uint64(text.slice(from: 1)) else { return nil }
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard let value = uint64(text), value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }

    /// Powers of ten that a `Double` holds exactly (10^0 through 10^22).
    @usableFromInline
    static let exactPowersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in
        powers.append(k == 0 ? 1 : powers[k - 1] * 10)
    }

    /// The number text as a `Double`, exactly as `Double(String)` reads it, or nil when it is not a number.
    ///
    /// Numbers of up to 15 significant digits whose power of ten is within ±22 (almost every figure in a report)
    /// are computed directly: both the digits and the power are exact `Double`s, so one multiplication or
    /// division rounds correctly, which is what `strtod` returns. Anything else goes to `Double(String)`, which
    /// made a `String` and cost some 700 instructions per number.
    @inlinable
    static func double(_ text: BorrowedBytes) -> Double? {
        if let fast = fastDouble(text) { return fast }
        return Double(text.string)
    }

    /// The direct path of ``double(_:)``: `-?digits(.digits)?([eE][+-]?digits)?`, at most 15 significant
    /// digits, power of ten within ±22; nil for anything else.
    @inlinable
    static func fastDouble(_ text: BorrowedBytes) -> Double? {
        let count = text.count
        var i = 0
        let negative = count > 0 && text[unchecked: 0] == UInt8(ascii: "-")
        if negative { i = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var integerDigits = 0
        while i < count, text[unchecked: i] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[unchecked: i] &- UInt8(ascii: "0"))
            if mantissa != 0 { significant += 1 }
            integerDigits += 1
            i += 1
        }
        guard integerDigits > 0 else { return nil }
        var power = 0
        if i < count, text[unchecked: i] == UInt8(ascii: ".") {
            i += 1
            var fractionDigits = 0
            while i < count, text[unchecked: i] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[unchecked: i] &- UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                fractionDigits += 1
                i += 1
            }
            guard fractionDigits > 0 else { return nil }
            power = -fractionDigits
        }
        // Past 15 digits the mantissa may have wrapped or be inexact as a Double.
        guard significant <= 15 else { return nil }
        if i < count, text[unchecked: i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            var exponentNegative = false
            if i < count, text[unchecked: i] == UInt8(ascii: "-") || text[unchecked: i] == UInt8(ascii: "+") {
                exponentNegative = text[unchecked: i] == UInt8(ascii: "-")
                i += 1
            }
            var exponent = 0
            var exponentDigits = 0
            while i < count, text[unchecked: i] &- UInt8(ascii: "0") < 10 {
                guard exponent < 1_000 else { return nil }
                exponent = exponent * 10 + Int(text[unchecked: i] &- UInt8(ascii: "0"))
                exponentDigits += 1
                i += 1
            }
            guard exponentDigits > 0 else { return nil }
            power += exponentNegative ? -exponent : exponent
        }
        guard i == count else { return nil }
        let digits = Double(mantissa)
        let unsigned: Double
        if mantissa == 0 {
            unsigned = 0
        } else if power >= 0 {
            guard power <= 22 else { return nil }
            unsigned = digits * exactPowersOfTen[power]
        } else {
            guard power >= -22 else { return nil }
            unsigned = digits / exactPowersOfTen[-power]
        }
        return negative ? -unsigned : unsigned
    }
}
