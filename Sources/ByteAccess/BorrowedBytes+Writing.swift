#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension BorrowedBytes {
    /// Hands the bytes to a C call that writes them (`write(2)`, `pwrite(2)`) until all are written, and says
    /// whether they were.
    ///
    /// `call` gets the start and length of what is left and how many bytes were written before it, and returns what
    /// it wrote, or -1 with `errno` set; `EINTR` is retried, any other failure or a call that writes nothing ends
    /// it. The output sinks hand their buffers to the kernel through this, so the pointer arithmetic of "the rest of
    /// the buffer" is done here, as ``Swift/Array/fillBytes(at:count:_:)`` does it for reads.
    @inlinable
    @usableFromInline
    package func writeAll(_ call: (_ start: UnsafeRawPointer, _ count: Int, _ written: Int) -> Int) -> Bool {
        guard let start = base.baseAddress else { return true }
        var done = 0
        while done < base.count {
            let n = call(start + done, base.count - done, done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += Swift.min(n, base.count - done)
        }
        return true
    }
}
