import Dispatch
import Foundation

/// Runs a function over many inputs on all cores, keeping results in input order.
package enum ParallelMap {
    /// Calls `transform` for each index of `count` on up to `jobs` threads and hands each result to `consume` in
    /// input order, as soon as it and every result before it are ready.
    ///
    /// Results wait in a reorder buffer of at most `window` entries (default: two per worker): a worker does not
    /// start input `i` until input `i - window` has been consumed, so memory is bounded by the number of workers,
    /// not of inputs, and a slow input holds up the output by at most that much. `consume` runs on one thread at
    /// a time (whichever worker completed the run of ready results) and returns false to stop: the workers finish
    /// the input in hand and start no other. Returns the number of results consumed.
    @discardableResult
    package static func forEachInOrder<Result: Sendable>(
        count: Int,
        jobs: Int,
        window: Int? = nil,
        progress: (@Sendable () -> Void)? = nil,
        transform: @Sendable (Int) -> Result,
        consume: @Sendable (Result) -> Bool
    ) -> Int {
        var next = 0
        return forEachInOrder(
            inputs: {
                guard next < count else { return nil }
                next += 1
                return next - 1
            },
            jobs: max(1, min(jobs, count)),
            window: window,
            progress: progress,
            transform: transform,
            consume: consume
        )
    }

    /// The same over inputs taken one at a time from `inputs` until it returns nil, for inputs that are found as the
    /// work goes (a folder walk) rather than listed first.
    ///
    /// `inputs` is called by one worker at a time, under the buffer's lock, and never again once it returned nil or
    /// the consumer stopped.
    @discardableResult
    package static func forEachInOrder<Input, Result: Sendable>(
        inputs: @escaping () -> Input?,
        jobs: Int,
        window: Int? = nil,
        progress: (@Sendable () -> Void)? = nil,
        transform: @Sendable (Input) -> Result,
        consume: @Sendable (Result) -> Bool
    ) -> Int {
        let workers = max(1, jobs)
        let buffer = ReorderBuffer<Input, Result>(inputs: inputs, window: max(1, window ?? 2 * workers))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let (index, input) = buffer.take() {
                let result = transform(input)
                progress?()
                buffer.complete(index, with: result, consume: consume)
            }
        }
        return buffer.consumed
    }
}

/// The results finished out of order, waiting for the ones before them; see
/// ``ParallelMap/forEachInOrder(inputs:jobs:window:progress:transform:consume:)``.
private final class ReorderBuffer<Input, Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Called under the lock only; nil once the inputs are exhausted.
    private var inputs: (() -> Input?)?
    private let window: Int
    /// The next input to hand to a worker.
    private var next = 0
    /// How many results `consume` has taken, all in order.
    private var emitted = 0
    private var ready: [Int: Value] = [:]
    /// True while a worker is consuming: results that arrive meanwhile are left for it.
    private var emitting = false
    private var stopped = false

    package init(inputs: @escaping () -> Input?, window: Int) {
        self.inputs = inputs
        self.window = window
    }

    package var consumed: Int {
        condition.lock()
        defer { condition.unlock() }
        return emitted
    }

    /// The next input to work on, waiting while the buffer is full; nil when there is none left or the
    /// consumer stopped.
    package func take() -> (Int, Input)? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && inputs != nil && next >= emitted + window { condition.wait() }
        guard !stopped, let source = inputs else { return nil }
        guard let input = source() else {
            inputs = nil
            // Workers waiting for room learn there is nothing left.
            condition.broadcast()
            return nil
        }
        next += 1
        return (next - 1, input)
    }

    /// Stores the result of `index`; the first worker to find the next result in order consumes every ready one.
    package func complete(_ index: Int, with value: Value, consume: (Value) -> Bool) {
        condition.lock()
        defer { condition.unlock() }
        if stopped { return }
        ready[index] = value
        guard !emitting else { return }
        emitting = true
        while !stopped, let value = ready.removeValue(forKey: emitted) {
            condition.unlock()
            let more = consume(value)
            condition.lock()
            emitted += 1
            if !more {
                stopped = true
                ready.removeAll()
            }
            condition.broadcast()
        }
        emitting = false
    }
}
