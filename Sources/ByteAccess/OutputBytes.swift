#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable buffer that output writers append to, handed out as ``BorrowedBytes`` (to `write(2)`, a file, a test).
///
/// `Array.append(contentsOf:)` cost hundreds of instructions per small piece, most of a JSON report's output time;
/// here an append is a capacity test and a copy, and the pieces the writers append by the million (keys, numbers)
/// are copied without a call. Every append makes room for itself, so no sequence of appends writes past the storage:
/// an owner with a policy of its own (hand a full buffer out instead of growing it) calls ``reserve(_:)`` first, and
/// the appends' own test then always passes. The owner frees the storage with ``deallocate()``, once.
@frozen
@usableFromInline
package struct OutputBytes {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var storedCapacity: Int
    @usableFromInline var storedCount = 0

    /// Storage for `capacity` bytes (at least 16), from `malloc` so that growing can `realloc`: large buffers move
    /// by remapping their pages instead of holding the old and the new buffer at once.
    package init(capacity: Int) {
        storedCapacity = Swift.max(16, capacity)
        base = Self.allocate(storedCapacity)
    }

    /// Bytes held.
    @inlinable
    @usableFromInline
    package var count: Int { storedCount }

    /// Bytes the storage holds before it grows.
    @inlinable
    @usableFromInline
    package var capacity: Int { storedCapacity }

    /// The bytes held, valid until the next change.
    @inlinable
    @usableFromInline
    package var bytes: BorrowedBytes {
        BorrowedBytes(UnsafeRawBufferPointer(start: base, count: storedCount))
    }

    /// The bytes held, as UTF-8 (invalid sequences replaced).
    package var string: String { bytes.string }

    /// Forgets the bytes held, keeping the storage.
    @inlinable
    @usableFromInline
    package mutating func removeAll() { storedCount = 0 }

    /// Sets the capacity to `capacity` (at least 16, and never below the bytes held): a buffer that grew for one
    /// large document goes back to a size that stays in cache.
    package mutating func resize(capacity: Int) {
        let wanted = Swift.max(16, capacity, storedCount)
        guard wanted != storedCapacity, let raw = realloc(base, wanted) else { return }
        base = raw.bindMemory(to: UInt8.self, capacity: wanted)
        storedCapacity = wanted
    }

    /// Makes room for `extra` more bytes, doubling the capacity as often as needed.
    @inlinable @inline(__always)
    @usableFromInline
    package mutating func reserve(_ extra: Int) {
        if extra > storedCapacity - storedCount { grow(extra) }
    }

    @usableFromInline
    mutating func grow(_ extra: Int) {
        let needed = storedCount + Swift.max(0, extra)
        var grown = storedCapacity
        while grown < needed { grown *= 2 }
        if let raw = realloc(base, grown) {
            base = raw.bindMemory(to: UInt8.self, capacity: grown)
        } else {
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            fresh.update(from: base, count: storedCount)
            free(base)
            base = fresh
        }
        storedCapacity = grown
    }

    /// Frees the storage; the buffer must not be used afterwards.
    package func deallocate() { free(base) }

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = malloc(capacity) else { return UnsafeMutablePointer<UInt8>.allocate(capacity: capacity) }
        return raw.bindMemory(to: UInt8.self, capacity: capacity)
    }

    @inlinable @inline(__always)
    @usableFromInline
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[storedCount] = byte
        storedCount += 1
    }

    @inlinable @inline(__always)
    @usableFromInline
    package mutating func append(_ bytes: BorrowedBytes) {
        guard let source = bytes.base.baseAddress, !bytes.isEmpty else { return }
        append(source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    /// A literal's bytes, read from its pointer: `withUTF8Buffer` was a call and a closure per piece, and the JSON
    /// writer appends a literal for every key, comma and brace.
    @inlinable @inline(__always)
    @usableFromInline
    package mutating func append(_ text: StaticString) {
        guard text.hasPointerRepresentation else {
            text.withUTF8Buffer { append(BorrowedBytes(UnsafeRawBufferPointer($0))) }
            return
        }
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// `count` copies of `byte`.
    @inlinable @inline(__always)
    @usableFromInline
    package mutating func append(repeating byte: UInt8, count extra: Int) {
        guard extra > 0 else { return }
        reserve(extra)
        (base + storedCount).initialize(repeating: byte, count: extra)
        storedCount += extra
    }

    /// `value` in decimal, after a `-` when `negative`, as `String(value)` writes it, without making the `String`.
    @inlinable
    @usableFromInline
    package mutating func append(decimal value: UInt64, negative: Bool = false) {
        append(decimal: value, negative: negative, digits: Self.decimalLength(of: value))
    }

    /// ``append(decimal:negative:)`` for an owner that counted the digits already (``decimalLength(of:)``), to
    /// reserve exactly: exactly `digits` digits are written (clamped to 1...20), so a wrong count writes wrong text,
    /// never outside the storage.
    @inlinable
    @usableFromInline
    package mutating func append(decimal value: UInt64, negative: Bool, digits: Int) {
        let digits = Swift.min(Swift.max(1, digits), 20)
        let width = negative ? digits + 1 : digits
        reserve(width)
        var cursor = base + storedCount + width
        var rest = value
        for _ in 0..<digits {
            cursor -= 1
            cursor.pointee = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        if negative { base[storedCount] = UInt8(ascii: "-") }
        storedCount += width
    }

    /// `value` in lowercase hexadecimal digits without leading zeros (one `0` for zero), as
    /// `String(value, radix: 16)` writes it.
    @inlinable
    @usableFromInline
    package mutating func append(hexadecimal value: UInt64) {
        let digits = Self.hexadecimalLength(of: value)
        reserve(digits)
        var cursor = base + storedCount + digits
        var rest = value
        for _ in 0..<digits {
            cursor -= 1
            let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
            cursor.pointee = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            rest >>= 4
        }
        storedCount += digits
    }

    /// The digits of `value` in decimal: what ``append(decimal:negative:)`` writes, for an owner that reserves
    /// exactly.
    @inlinable
    @usableFromInline
    package static func decimalLength(of value: UInt64) -> Int {
        var length = 1
        var probe = value
        while probe >= 10 {
            probe /= 10
            length += 1
        }
        return length
    }

    /// The digits of `value` in hexadecimal: what ``append(hexadecimal:)`` writes.
    @inlinable
    @usableFromInline
    package static func hexadecimalLength(of value: UInt64) -> Int {
        Swift.max(1, (64 - value.leadingZeroBitCount + 3) / 4)
    }

    /// Copies `count` bytes without a call for the short pieces the writers append by the million (keys, names,
    /// numbers): two overlapping words for 8 to 16 bytes, `memcpy` only for longer ones.
    @inlinable @inline(__always)
    @usableFromInline
    mutating func append(_ source: UnsafePointer<UInt8>, count: Int) {
        reserve(count)
        let target = base + storedCount
        if count > 16 {
            target.update(from: source, count: count)
        } else if count >= 8 {
            let head = UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)
            let tail = UnsafeRawPointer(source + count - 8).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(target).storeBytes(of: head, as: UInt64.self)
            UnsafeMutableRawPointer(target + count - 8).storeBytes(of: tail, as: UInt64.self)
        } else {
            for k in 0..<count { target[k] = source[k] }
        }
        storedCount += count
    }
}
