import CBlockScan

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension BorrowedBytes {
    /// The offset of the first `byte` at or after `from`; nil when there is none.
    @inlinable
    @usableFromInline
    package func firstIndex(of byte: UInt8, from: Int = 0) -> Int? {
        firstIndex(of: byte, in: Swift.min(from, base.count)..<base.count)
    }

    /// The offset of the first `byte` inside `range` (clamped to the bytes); nil when there is none.
    ///
    /// Short ranges (a line, a field) are searched eight bytes at a time here; `memchr`, vectorised but a call
    /// away, takes the long ones. Text reports search every line several times, mostly over a few dozen bytes.
    @inlinable
    @usableFromInline
    package func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        let lower = Swift.min(Swift.max(0, range.lowerBound), base.count)
        let n = Swift.min(Swift.max(lower, range.upperBound), base.count)
        guard lower < n, let start = base.baseAddress else { return nil }
        if n - lower > 256 {
            guard let hit = memchr(start + lower, Int32(byte), n - lower) else { return nil }
            return start.distance(to: UnsafeRawPointer(hit))
        }
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        var i = lower
        while i + 8 <= n {
            let found = ByteWords.zeroBytes(
                base.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian ^ pattern
            )
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }

    /// The offset of the last `byte` inside `range` (clamped to the bytes); nil when there is none.
    @inlinable
    @usableFromInline
    package func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        let lower = Swift.min(Swift.max(0, range.lowerBound), base.count)
        var i = Swift.min(Swift.max(lower, range.upperBound), base.count)
        while i > lower {
            i -= 1
            if base[i] == byte { return i }
        }
        return nil
    }

    /// The offset of the last byte for which `predicate` holds.
    @inlinable
    @usableFromInline
    package func lastIndex(where predicate: (UInt8) throws -> Bool) rethrows -> Int? {
        var i = base.count
        while i > 0 {
            i -= 1
            if try predicate(base[i]) { return i }
        }
        return nil
    }

    /// The offset of the last occurrence of `text`'s bytes; nil when there is none (or `text` is empty).
    @inlinable
    @usableFromInline
    package func lastIndex(of text: StaticString) -> Int? {
        text.withBorrowedUTF8 { pattern -> Int? in
            guard let head = pattern.base.first, pattern.base.count <= base.count else { return nil }
            var i = base.count - pattern.base.count
            while i >= 0 {
                if base[i] == head, matches(pattern, at: i) { return i }
                i -= 1
            }
            return nil
        }
    }

    /// The offset of the first byte at or after `from` for which `predicate` holds.
    @inlinable
    @usableFromInline
    package func firstIndex(from: Int = 0, where predicate: (UInt8) throws -> Bool) rethrows -> Int? {
        var i = Swift.max(0, from)
        while i < base.count {
            if try predicate(base[i]) { return i }
            i += 1
        }
        return nil
    }

    /// The offset of the first occurrence of `pattern` starting at or after `from`.
    @inlinable
    @usableFromInline
    package func firstIndex(of pattern: [UInt8], from: Int = 0) -> Int? {
        pattern.withUnsafeBytes { firstIndex(of: BorrowedBytes($0), from: from) }
    }

    /// The offset of the first occurrence of `text`'s bytes starting at or after `from`.
    @inlinable
    @usableFromInline
    package func firstIndex(of text: StaticString, from: Int = 0) -> Int? {
        text.withUTF8Buffer { firstIndex(of: BorrowedBytes(UnsafeRawBufferPointer($0)), from: from) }
    }

    /// The offset of the first occurrence of `pattern`'s bytes starting at or after `from`; nil when there is none
    /// (or the pattern is empty).
    ///
    /// Candidates are the places where the pattern's first two bytes both match, found sixteen positions at a time
    /// with SSE2 compares on x86-64 and eight with word arithmetic elsewhere; only those are compared in full.
    /// Searching for the first byte with `memchr` cost a call per candidate, which for a pattern starting with `/`
    /// in a path was a call per path component.
    @inlinable
    @usableFromInline
    package func firstIndex(of pattern: BorrowedBytes, from: Int = 0) -> Int? {
        let start = from
        guard let patternBase = pattern.base.baseAddress, let textBase = base.baseAddress, !pattern.base.isEmpty,
            start >= 0, base.count - start >= pattern.base.count
        else { return nil }
        let needle = patternBase.assumingMemoryBound(to: UInt8.self)
        let text = textBase.assumingMemoryBound(to: UInt8.self)
        let length = pattern.base.count
        if length == 1 { return firstIndex(of: needle[0], from: start) }
        let n = base.count
        let last = n - length
        let ones: UInt64 = 0x0101_0101_0101_0101
        let first = ones &* UInt64(needle[0])
        let second = ones &* UInt64(needle[1])
        var i = start
        #if arch(x86_64)
            // Sixteen candidate positions a step with SSE2 compares (`block_scan.h`), reading bytes i ..< i + 17:
            // the sniffers search whole files for keys that are mostly absent.
            while i + 17 <= n, i <= last {
                var candidates = apm_pair_starts16(text + i, needle[0], needle[1])
                while candidates != 0 {
                    let offset = i + candidates.trailingZeroBitCount
                    if offset > last { return nil }
                    if memcmp(text + offset + 2, needle + 2, length - 2) == 0 { return offset }
                    candidates &= candidates - 1
                }
                i += 16
            }
        #endif
        // Each step reads bytes i ..< i + 9 (the second word starts one byte later).
        while i + 9 <= n, i <= last {
            let here = textBase.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            let next = textBase.loadUnaligned(fromByteOffset: i + 1, as: UInt64.self).littleEndian
            var candidates = ByteWords.zeroBytes(here ^ first) & ByteWords.zeroBytes(next ^ second)
            while candidates != 0 {
                let offset = i + candidates.trailingZeroBitCount >> 3
                if offset > last { return nil }
                if memcmp(text + offset + 2, needle + 2, length - 2) == 0 { return offset }
                candidates &= candidates - 1
            }
            i += 8
        }
        while i <= last {
            if text[i] == needle[0], memcmp(text + i + 1, needle + 1, length - 1) == 0 {
                return i
            }
            i += 1
        }
        return nil
    }

    /// True when `text`'s bytes stand at `offset`.
    @inlinable
    @usableFromInline
    package func matches(_ text: StaticString, at offset: Int) -> Bool {
        text.withUTF8Buffer { matches(BorrowedBytes(UnsafeRawBufferPointer($0)), at: offset) }
    }

    /// True when `other`'s bytes stand at `offset`.
    @inlinable
    @usableFromInline
    package func matches(_ other: BorrowedBytes, at offset: Int) -> Bool {
        guard offset >= 0, other.base.count <= base.count - offset else { return false }
        var k = 0
        while k < other.base.count {
            if base[offset + k] != other.base[k] { return false }
            k += 1
        }
        return true
    }

    /// True when the bytes start with `text`'s.
    @inlinable
    @usableFromInline
    package func hasPrefix(_ text: StaticString) -> Bool { matches(text, at: 0) }

    /// True when the bytes end with `text`'s.
    @inlinable
    @usableFromInline
    package func hasSuffix(_ text: StaticString) -> Bool { matches(text, at: base.count - text.utf8CodeUnitCount) }

    /// True when the bytes are exactly `text`'s.
    @inlinable
    @usableFromInline
    package func equals(_ text: StaticString) -> Bool {
        base.count == text.utf8CodeUnitCount && matches(text, at: 0)
    }

    /// True when the bytes are exactly `other`'s.
    @inlinable
    @usableFromInline
    package func equals(_ other: BorrowedBytes) -> Bool {
        base.count == other.base.count && matches(other, at: 0)
    }

    /// True when `text`'s bytes occur anywhere.
    @inlinable
    @usableFromInline
    package func contains(_ text: StaticString) -> Bool { firstIndex(of: text) != nil }

    /// The bytes' order against `other`'s as `memcmp` gives it, a prefix first: negative, 0 or positive.
    ///
    /// The JSON writer sorts ASCII keys by their bytes, which then need no `String`.
    @inlinable
    @usableFromInline
    package func compare(_ other: BorrowedBytes) -> Int32 {
        let shared = Swift.min(base.count, other.base.count)
        if shared > 0, let x = base.baseAddress, let y = other.base.baseAddress {
            let order = memcmp(x, y, shared)
            if order != 0 { return order }
        }
        return base.count == other.base.count ? 0 : (base.count < other.base.count ? -1 : 1)
    }

    /// Calls `body` with each offset, in order, of a `"` followed by `a`, `b` or `c`, until it returns true; true
    /// when it did.
    ///
    /// The KSCrash sniffer's one pass over a whole file: its keys all start with a quote and one of three letters,
    /// so only those places are compared, sixteen positions a step with SSE2 on x86-64 (`block_scan.h`).
    @inlinable
    @usableFromInline
    package func forEachQuote(followedBy a: UInt8, _ b: UInt8, _ c: UInt8, _ body: (Int) -> Bool) -> Bool {
        guard let raw = base.baseAddress else { return false }
        let text = raw.assumingMemoryBound(to: UInt8.self)
        let n = base.count
        var i = 0
        #if arch(x86_64)
            // Reads bytes i ..< i + 17.
            while i + 17 <= n {
                var candidates = apm_quote_then16(text + i, a, b, c)
                while candidates != 0 {
                    if body(i + candidates.trailingZeroBitCount) { return true }
                    candidates &= candidates - 1
                }
                i += 16
            }
        #endif
        while i + 1 < n {
            let next = text[i + 1]
            if text[i] == UInt8(ascii: "\""), next == a || next == b || next == c, body(i) { return true }
            i += 1
        }
        return false
    }
}
