import Foundation

/// A counter shared by worker threads.
final class AtomicCounter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()

    /// Returns the current value and adds one.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let current = value
        value += 1
        return current
    }

    var current: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// A mutual-exclusion lock with a scoped helper.
final class NSLockShim: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
