import ByteAccess

/// Bytes for standard output gathered in a fixed buffer and written a chunk at a time.
///
/// `apm-inspect atos` writes a few short pieces per address; building a `String` per line and appending it to the
/// whole output cost more than the lookups (issue 16's benchmark), and held the output whole until the end.
package final class OutputBuffer {
    /// Never grown: a piece that does not fit goes out after what is held.
    private var storage: OutputBytes
    /// Where full buffers go: standard output, or a test's collector.
    private let drain: (BorrowedBytes) -> Void

    package init(capacity: Int = 1 << 16, drain: @escaping (BorrowedBytes) -> Void) {
        storage = OutputBytes(capacity: max(capacity, 64))
        self.drain = drain
    }

    deinit { storage.deallocate() }

    /// Hands what is held to the drain.
    package func flush() {
        guard storage.count > 0 else { return }
        drain(storage.bytes)
        storage.removeAll()
    }

    /// Hands out what is held when `extra` more bytes would not fit.
    private func makeRoom(_ extra: Int) {
        if extra > storage.capacity - storage.count { flush() }
    }

    package func append(_ bytes: BorrowedBytes) {
        guard !bytes.isEmpty else { return }
        makeRoom(bytes.count)
        // Longer than the buffer: straight out.
        guard bytes.count <= storage.capacity else { return drain(bytes) }
        storage.append(bytes)
    }

    package func append(_ bytes: [UInt8]) {
        bytes.withBorrowedBytes { append($0) }
    }

    package func append(_ text: StaticString) {
        text.withBorrowedUTF8 { append($0) }
    }

    package func append(byte: UInt8) {
        makeRoom(1)
        storage.append(byte)
    }

    /// `value` in decimal.
    package func append(decimal value: UInt64) {
        makeRoom(OutputBytes.decimalLength(of: value))
        storage.append(decimal: value)
    }

    /// `value` as `0x` and lowercase hexadecimal digits, no leading zeros (as `String(value, radix: 16)`).
    package func append(hex value: UInt64) {
        makeRoom(2 + OutputBytes.hexadecimalLength(of: value))
        storage.append("0x")
        storage.append(hexadecimal: value)
    }
}
