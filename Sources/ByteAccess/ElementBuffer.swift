/// A growable buffer of plain values whose storage is handed over whole when it is built: the JSON tape.
///
/// `Array.append` re-checks uniqueness and capacity through non-inlined paths on every call; the JSON builders
/// append one node per value and key, so this buffer keeps the pointer and count inline instead, and the finished
/// tape becomes the document's without a copy (``detach()``). The owner calls ``release()`` or ``detach()``
/// exactly once.
@frozen
@usableFromInline
package struct ElementBuffer<Element: BitwiseCopyable> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    @usableFromInline var storedCount = 0
    @usableFromInline var capacity: Int

    @inlinable
    @usableFromInline
    package init(capacity: Int) {
        self.capacity = Swift.max(16, capacity)
        self.base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    @inlinable
    @usableFromInline
    package var count: Int { storedCount }

    @inlinable @inline(__always)
    @usableFromInline
    package mutating func append(_ element: Element) {
        if storedCount == capacity { grow() }
        (base + storedCount).initialize(to: element)
        storedCount += 1
    }

    @usableFromInline
    mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: storedCount)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// The element at `index`, which must lie in `0..<count` (checked: a builder's own indexes, never input).
    @inlinable
    @usableFromInline
    package subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < storedCount, "element index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < storedCount, "element index out of range")
            base[index] = newValue
        }
    }

    @inlinable
    @usableFromInline
    package var last: Element? { storedCount > 0 ? base[storedCount - 1] : nil }

    @inlinable
    @usableFromInline
    package mutating func removeLast() {
        guard storedCount > 0 else { return }
        storedCount -= 1
    }

    /// The elements as an array (one copy).
    @inlinable
    @usableFromInline
    package func toArray() -> [Element] { Array(UnsafeBufferPointer(start: base, count: storedCount)) }

    /// Hands the storage over to the caller, who must ``ElementStorage/deallocate()`` it; the buffer must not be
    /// used or released afterwards.
    @inlinable
    @usableFromInline
    package func detach() -> ElementStorage<Element> { ElementStorage(base: base, count: storedCount) }

    /// Frees the storage; the buffer must not be used afterwards.
    @inlinable
    @usableFromInline
    package func release() { base.deallocate() }
}

/// The storage of a finished ``ElementBuffer``, owned by whoever detached it (a JSON document frees it in its
/// `deinit`).
@frozen
@usableFromInline
package struct ElementStorage<Element: BitwiseCopyable> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let count: Int

    @inlinable
    init(base: UnsafeMutablePointer<Element>, count: Int) {
        self.base = base
        self.count = count
    }

    /// The elements, lent while the storage lives.
    @inlinable
    @usableFromInline
    package var elements: BorrowedElements<Element> {
        BorrowedElements(UnsafeBufferPointer(start: base, count: count))
    }

    /// Frees the storage, once; nothing may read it afterwards.
    @inlinable
    @usableFromInline
    package func deallocate() { base.deallocate() }
}

/// Read-only elements lent by their owner (a JSON document's tape), valid while the owner lives.
///
/// Reads are checked in debug builds only, as the standard library's unsafe buffers are: the tape walkers test
/// every index against ``count`` (or a node's own `next`, which the builders keep inside the tape) before reading,
/// and a second check on each of the millions of node reads of a crash report cost instructions for nothing.
@frozen
@usableFromInline
package struct BorrowedElements<Element> {
    @usableFromInline let base: UnsafeBufferPointer<Element>

    @inlinable
    init(_ base: UnsafeBufferPointer<Element>) {
        self.base = base
    }

    @inlinable
    @usableFromInline
    package var count: Int { base.count }

    @inlinable
    @usableFromInline
    package subscript(index: Int) -> Element { base[index] }
}

/// A fixed number of slots, allocated once and freed by its owner with ``deallocate()``: the fast JSON builder's
/// stack of open containers, whose depth the builder bounds by the slot count before it pushes.
///
/// Reads and writes are checked in debug builds only, as the standard library's unsafe buffers are; the slots start
/// uninitialised, so a slot is written before it is read.
@frozen
@usableFromInline
package struct ElementSlots<Element: BitwiseCopyable> {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline let capacity: Int

    @inlinable
    @usableFromInline
    package init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        self.base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    @inlinable
    @usableFromInline
    package subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < capacity, "slot index out of range")
            return base[index]
        }
        nonmutating set {
            assert(index >= 0 && index < capacity, "slot index out of range")
            base[index] = newValue
        }
    }

    /// Frees the slots, once; nothing may use them afterwards.
    @inlinable
    @usableFromInline
    package func deallocate() { base.deallocate() }
}
