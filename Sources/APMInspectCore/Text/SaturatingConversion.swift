/// The one way a floating-point value becomes an integer in apm-inspect.
///
/// `Int(someDouble)` traps on NaN, on infinity and on anything outside the integer's range, and reports carry
/// numbers like `9223372036854775807s` or `1e999` that parse to exactly those. Every conversion goes through
/// this initialiser (a test scans `Sources/` for any other), so one hostile number costs a wrong figure at
/// worst, never the process.
extension FixedWidthInteger {
    /// `value` rounded toward zero, clamped to `min...max`; NaN becomes zero.
    @inlinable
    @usableFromInline
    package init<Source: BinaryFloatingPoint>(saturating value: Source) {
        if let exact = Self(exactly: value.rounded(.towardZero)) {
            self = exact
        } else if value.isNaN {
            self = 0
        } else {
            self = value < 0 ? .min : .max
        }
    }
}

extension BinaryFloatingPoint where Self: LosslessStringConvertible {
    /// Integral values without a fraction (`20`), others as Swift prints them (`19.81`, `inf`,
    /// `1.8446744073709552e+19`): the figure shown for seconds and percentages, with no conversion that can trap.
    @usableFromInline
    package var wholeOrDecimalText: String {
        if let whole = Int64(exactly: self) { return String(whole) }
        return String(self)
    }
}
