extension ScratchElements where Element == UInt8 {
    /// The first `count` bytes written, to read back as ``BorrowedBytes`` (a lowercased copy compared with
    /// literals, for example); valid only inside the ``withScratchElements(of:count:_:)`` call.
    @inlinable
    package func borrowedBytes(count: Int) -> BorrowedBytes {
        BorrowedBytes(
            UnsafeRawBufferPointer(
                UnsafeMutableBufferPointer(rebasing: base[..<Swift.min(Swift.max(0, count), base.count)])
            )
        )
    }
}
