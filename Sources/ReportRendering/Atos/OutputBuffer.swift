/// Bytes for standard output gathered in a fixed buffer and written a chunk at a time.
///
/// `apm-inspect atos` writes a few short pieces per address; building a `String` per line and appending it to the
/// whole output cost more than the lookups (issue 16's benchmark), and held the output whole until the end.
package final class OutputBuffer {
    private let storage: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// Where full buffers go: standard output, or a test's collector.
    private let drain: (UnsafeBufferPointer<UInt8>) -> Void

    package init(capacity: Int = 1 << 16, drain: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.capacity = max(capacity, 64)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
        self.drain = drain
    }

    deinit { storage.deallocate() }

    /// Hands what is held to the drain.
    package func flush() {
        guard count > 0 else { return }
        drain(UnsafeBufferPointer(start: storage, count: count))
        count = 0
    }

    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity {
            flush()
            // Longer than the buffer: straight out.
            if bytes.count > capacity {
                drain(bytes)
                return
            }
        }
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    package func append(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    package func append(byte: UInt8) {
        if count == capacity { flush() }
        storage[count] = byte
        count += 1
    }

    /// `value` in decimal.
    package func append(decimal value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = raw.count
            var rest = value
            repeat {
                position -= 1
                raw[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            append(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[position...]))
        }
    }

    /// `value` as `0x` and lowercase hexadecimal digits, no leading zeros (as `String(value, radix: 16)`).
    package func append(hex value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { raw in
            var position = raw.count
            var rest = value
            repeat {
                position -= 1
                let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
                raw[position] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                rest >>= 4
            } while rest > 0
            position -= 2
            raw[position] = UInt8(ascii: "0")
            raw[position + 1] = UInt8(ascii: "x")
            append(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[position...]))
        }
    }
}
