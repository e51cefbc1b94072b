import APMInspectCore

/// Nearest-rank percentiles of non-negative values, exact while the values are kept and from a log-bucketed
/// histogram after ``switchToHistogram()``.
///
/// Each power of two is cut into 64 equal buckets; a value is reported as its bucket's middle, clamped to the
/// smallest and largest value seen, so a histogram percentile is within 0.8 % of the exact one. Values under 2^-20
/// (about 1 ns in ms, and 0) share one bucket reported as the smallest value, values over 2^40 (35 years in ms) one
/// reported as the largest: at most 3,842 buckets per sketch, whatever the number of values.
package struct PercentileSketch: Sendable, Equatable {
    /// The bound on a histogram percentile's relative error, in percent.
    package static let relativeErrorPercent = 0.8

    private static let perOctave = 64
    private static let lowestExponent = -20
    private static let highestExponent = 40
    private static let bottom = lowestExponent * perOctave - 1
    private static let top = (highestExponent + 1) * perOctave

    private var values: [Double] = []
    private var buckets: [Int: Int] = [:]
    private var histogram = false
    private(set) var count = 0
    private var smallest = Double.infinity
    private var largest = -Double.infinity

    package init() {}

    /// Adds `value` when it is known (non-negative); returns 1 when it was kept exactly, 0 otherwise.
    @discardableResult
    package mutating func add(_ value: Double) -> Int {
        guard value >= 0 else { return 0 }
        count += 1
        smallest = Swift.min(smallest, value)
        largest = Swift.max(largest, value)
        if histogram {
            buckets[Self.bucket(value), default: 0] += 1
            return 0
        }
        values.append(value)
        return 1
    }

    /// Drops the kept values for their bucket counts.
    package mutating func switchToHistogram() {
        guard !histogram else { return }
        histogram = true
        for value in values { buckets[Self.bucket(value), default: 0] += 1 }
        values = []
    }

    package var percentiles: HTTPSummary.Percentiles {
        guard !histogram else { return histogramPercentiles }
        return HTTPSummary.Percentiles(values: values)
    }

    private var histogramPercentiles: HTTPSummary.Percentiles {
        guard count > 0 else { return HTTPSummary.Percentiles() }
        let ordered = buckets.sorted { $0.key < $1.key }
        func rank(_ p: Double) -> Double {
            let wanted = Swift.min(Swift.max(Int(saturating: (p / 100 * Double(count)).rounded(.up)), 1), count)
            var seen = 0
            for (bucket, n) in ordered {
                seen += n
                if seen >= wanted { return representative(bucket) }
            }
            return largest
        }
        return HTTPSummary.Percentiles(n: count, p50: rank(50), p90: rank(90), p99: rank(99), max: largest)
    }

    private func representative(_ bucket: Int) -> Double {
        if bucket == Self.bottom { return smallest }
        if bucket == Self.top { return largest }
        let exponent = bucket >= 0 ? bucket / Self.perOctave : (bucket - (Self.perOctave - 1)) / Self.perOctave
        let step = bucket - exponent * Self.perOctave
        let significand = 1 + (Double(step) + 0.5) / Double(Self.perOctave)
        let middle = Double(sign: .plus, exponent: exponent, significand: significand)
        return Swift.min(Swift.max(middle, smallest), largest)
    }

    private static func bucket(_ value: Double) -> Int {
        guard value.isFinite else { return top }
        // `Double.Exponent` is `Int`: no conversion.
        let exponent = value.exponent
        guard value > 0, exponent >= lowestExponent else { return bottom }
        guard exponent <= highestExponent else { return top }
        let step = Int(saturating: ((value.significand - 1) * Double(perOctave)).rounded(.down))
        return exponent * perOctave + Swift.min(Swift.max(step, 0), perOctave - 1)
    }
}
