import Foundation

/// A counter shared by worker threads.
package final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    package init() {}

    /// Returns the current value and adds one.
    package func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let current = value
        value += 1
        return current
    }

    package var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A mutual-exclusion lock with a scoped helper.
package final class NSLockShim: @unchecked Sendable {
    private let lock = NSLock()

    package init() {}

    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
