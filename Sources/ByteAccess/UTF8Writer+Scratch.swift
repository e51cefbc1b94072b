/// Lends `capacity` bytes of scratch space (on the stack when small) to `write`, then hands what it wrote to `read`.
///
/// For text made and used at once, such as a timestamp's digits on their way into a JSON document: no `String`, no
/// allocation, and a write past `capacity` is dropped, as ``UTF8Writer`` drops it.
@inlinable
package func withScratchUTF8<Result>(
    capacity: Int,
    _ write: (inout UTF8Writer) -> Void,
    then read: (BorrowedBytes) -> Result
) -> Result {
    let capacity = Swift.max(0, capacity)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.max(capacity, 1)) { buffer in
        var writer = UTF8Writer(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
        write(&writer)
        return read(BorrowedBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[..<writer.count]))))
    }
}
