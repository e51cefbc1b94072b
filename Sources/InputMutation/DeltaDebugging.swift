/// Minimisation by delta debugging (ddmin): the smallest input found that still fails, as a pure function of the
/// input and the predicate.
package enum DeltaDebugging {
    package struct Result: Sendable, Equatable {
        package var bytes: [UInt8]
        /// How many times the predicate ran.
        package var tests: Int
        /// False when the budget ran out before no chunk could be removed (the result is smaller, not minimal).
        package var isComplete: Bool
    }

    /// Removes chunks of `input` while `isFailing` still holds, halving the chunk size when none can go.
    ///
    /// `input` itself is assumed to fail; the result is 1-minimal (no single byte can be removed) when
    /// ``Result/isComplete`` is true.
    package static func minimise(
        _ input: [UInt8],
        maxTests: Int = 1000,
        isFailing: ([UInt8]) -> Bool
    ) -> Result {
        var current = input
        var chunks = 2
        var tests = 0
        if current.count >= 1, tests < maxTests {
            tests += 1
            if isFailing([]) { return Result(bytes: [], tests: tests, isComplete: true) }
        }
        while current.count >= 2 {
            let size = (current.count + chunks - 1) / chunks
            let ranges = stride(from: 0, to: current.count, by: size).map { $0..<min($0 + size, current.count) }
            var reduced = false
            for range in ranges {
                guard tests < maxTests else { return Result(bytes: current, tests: tests, isComplete: false) }
                tests += 1
                let subset = Array(current[range])
                if isFailing(subset) {
                    current = subset
                    chunks = 2
                    reduced = true
                    break
                }
            }
            if !reduced, ranges.count > 2 {
                for range in ranges {
                    guard tests < maxTests else { return Result(bytes: current, tests: tests, isComplete: false) }
                    tests += 1
                    var complement = current
                    complement.removeSubrange(range)
                    if isFailing(complement) {
                        current = complement
                        chunks = max(chunks - 1, 2)
                        reduced = true
                        break
                    }
                }
            }
            if !reduced {
                if chunks >= current.count { break }
                chunks = min(chunks * 2, current.count)
            }
        }
        return Result(bytes: current, tests: tests, isComplete: true)
    }
}
