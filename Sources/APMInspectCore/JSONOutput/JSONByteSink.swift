#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable byte buffer for the JSON writer: `Array.append(contentsOf:)` cost hundreds of instructions per
/// small piece, most of a report's output time.
final class JSONByteSink {
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 16_384) {
        self.capacity = max(capacity, 16)
        self.storage = Self.allocate(self.capacity)
    }

    deinit { free(storage) }

    /// Raw `malloc` memory, so that growing can use `realloc`.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = malloc(capacity) else { return UnsafeMutablePointer<UInt8>.allocate(capacity: capacity) }
        return raw.bindMemory(to: UInt8.self, capacity: capacity)
    }

    private func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        var grown = capacity * 2
        while grown < count + extra { grown *= 2 }
        // `realloc` moves large buffers by remapping their pages: growing no longer holds the old and the new
        // buffer at once (three times the output at the last doubling).
        if let raw = realloc(storage, grown) {
            storage = raw.bindMemory(to: UInt8.self, capacity: grown)
        } else {
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            fresh.update(from: storage, count: count)
            free(storage)
            storage = fresh
        }
        capacity = grown
    }

    func append(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (storage + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    func append(literal text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// `count` copies of `byte`.
    func append(repeating byte: UInt8, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        (storage + count).initialize(repeating: byte, count: extra)
        count += extra
    }

    /// Calls `body` with the bytes written so far.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        body(UnsafeBufferPointer(start: storage, count: count))
    }

    /// The bytes written, as text.
    var string: String {
        String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self)
    }
}
