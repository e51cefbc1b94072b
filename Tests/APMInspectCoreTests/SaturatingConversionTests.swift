import APMInspectCore
import Testing

/// Reports carry numbers no integer holds (`9223372036854775807s`, `1e999`): the conversion clamps instead of
/// trapping, and stays exact everywhere the integer can hold the value.
@Suite struct SaturatingConversionTests {
    @Test func outOfRangeValuesClampToTheEnds() {
        #expect(Int(saturating: 9_223_372_036_854_775_807.0) == Int.max)  // 2^63 as a Double
        #expect(Int(saturating: 18_446_744_073_709_551_616.0) == Int.max)
        #expect(Int(saturating: -1e300) == Int.min)
        #expect(Int(saturating: Double.infinity) == Int.max)
        #expect(Int(saturating: -Double.infinity) == Int.min)
        #expect(Int(saturating: Double.nan) == 0)
        #expect(UInt64(saturating: -3.5) == 0)
        #expect(UInt64(saturating: 1.9e19) == UInt64.max)
        #expect(Int32(saturating: 3e9) == Int32.max)
        #expect(Int64(saturating: Float.infinity) == Int64.max)
    }

    @Test func representableValuesConvertTowardZeroAsIntInitDoes() {
        for value in [0.0, -0.0, 1.5, -1.5, 2.999, -2.999, 9_007_199_254_740_992, -9_223_372_036_854_775_808] {
            #expect(Int(saturating: value) == Int(value))
        }
        #expect(Int(saturating: (1234.5).rounded()) == 1235)
    }

    @Test func parsedHostileNumbersDoNotTrap() throws {
        // The texts of the issue, read as a parser reads them.
        let elapsed = try #require(Double("9223372036854775807"))
        let cpu = try #require(Double("18446744073709551616"))
        let huge = try #require(Double("1e999"))
        #expect(Int(saturating: elapsed) == Int.max)
        #expect(Int(saturating: cpu) == Int.max)
        #expect(huge.isInfinite && Int(saturating: huge) == Int.max)
    }

    @Test func wholeOrDecimalTextNeverConvertsOutOfRange() {
        #expect(20.0.wholeOrDecimalText == "20")
        #expect((-3.0).wholeOrDecimalText == "-3")
        #expect(19.81.wholeOrDecimalText == "19.81")
        #expect(Double.infinity.wholeOrDecimalText == "inf")
        #expect(Double.nan.wholeOrDecimalText == "nan")
        #expect(18_446_744_073_709_551_616.0.wholeOrDecimalText == "1.8446744073709552e+19")
        #expect(9_223_372_036_854_775_807.0.wholeOrDecimalText == "9.223372036854776e+18")
    }
}
