import Dispatch

/// Runs a function over many inputs on all cores, keeping results in input order.
enum ParallelMap {
    /// Calls `transform` for each index of `count` on up to `jobs` threads; `progress` is called after each item
    /// from the worker that finished it.
    static func map<Result: Sendable>(
        count: Int,
        jobs: Int,
        progress: (@Sendable () -> Void)? = nil,
        transform: @Sendable (Int) -> Result
    ) -> [Result?] {
        let results = ResultSlots<Result>(count: count)
        let workers = max(1, min(jobs, count))
        let next = AtomicCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.increment()
                if index >= count { return }
                results.store(transform(index), at: index)
                progress?()
            }
        }
        return results.values
    }
}

/// One slot per input, each written by exactly one worker.
private final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var storage: [Value?]
    private let lock = NSLockShim()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func store(_ value: Value, at index: Int) {
        lock.withLock { storage[index] = value }
    }

    var values: [Value?] { lock.withLock { storage } }
}
