/// Scratch space for `count` plain values, lent to `body`.
///
/// On the stack when small, as `withUnsafeTemporaryAllocation` gives it. Its elements start uninitialised, so
/// `body` writes each before it reads it. The JSON writer orders an object's keys in such a buffer for every object it writes, where an array per object
/// was an allocation per object.
@inlinable
package func withScratchElements<Element: BitwiseCopyable, Result>(
    of type: Element.Type,
    count: Int,
    _ body: (ScratchElements<Element>) -> Result
) -> Result {
    let count = Swift.max(0, count)
    return withUnsafeTemporaryAllocation(of: type, capacity: Swift.max(count, 1)) { buffer in
        body(ScratchElements(UnsafeMutableBufferPointer(rebasing: buffer[..<count])))
    }
}

/// The elements lent by ``withScratchElements(of:count:_:)``, valid only inside that call.
///
/// Copies share the elements (it is a view), and reads and writes are checked in debug builds only, as the standard library's unsafe
/// buffers are: the indexes are the writer's own, below ``count``.
@frozen
@usableFromInline
package struct ScratchElements<Element>: RandomAccessCollection, MutableCollection {
    @usableFromInline let base: UnsafeMutableBufferPointer<Element>

    @inlinable
    init(_ base: UnsafeMutableBufferPointer<Element>) {
        self.base = base
    }

    @inlinable
    @usableFromInline
    package var startIndex: Int { 0 }

    @inlinable
    @usableFromInline
    package var endIndex: Int { base.count }

    @inlinable
    @usableFromInline
    package subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }
}
