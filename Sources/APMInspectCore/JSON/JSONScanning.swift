/// The byte-level scans both tape builders share: whitespace, string runs and the number grammar.
enum JSONScanning {
    /// The offset of the first byte at or after `start` that is not JSON whitespace.
    @inline(__always)
    static func skipWhitespace(_ buffer: UnsafeRawBufferPointer, from start: Int) -> Int {
        let n = buffer.count
        var p = start
        while p < n {
            let b = buffer[p]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            p += 1
        }
        return p
    }

    /// Scans a string's content from `start` (just after the opening quote) to the first unescaped quote or
    /// control character; returns that offset (or the end of input) and whether an escape was seen.
    @inline(__always)
    static func scanStringRun(_ buffer: UnsafeRawBufferPointer, from start: Int) -> (end: Int, hasEscapes: Bool) {
        let n = buffer.count
        var p = start
        var escapes = false
        while p < n {
            let b = buffer[p]
            if b == UInt8(ascii: "\"") || b < 0x20 { return (p, escapes) }
            if b == UInt8(ascii: "\\") {
                escapes = true
                p += 2
                continue
            }
            p += 1
            // Long strings: eight bytes at a time until a quote, a backslash or a control character.
            while p + 8 <= n, !hasSpecialStringByte(buffer.loadUnaligned(fromByteOffset: p, as: UInt64.self)) {
                p += 8
            }
        }
        return (n, escapes)
    }

    /// True when any byte of `word` is `"`, `\\` or below 0x20 (the bytes that end a plain run inside a string).
    @inline(__always)
    static func hasSpecialStringByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- (ones &* 0x20)) & ~word
        return (zeroQuote | zeroBackslash | control) & highs != 0
    }

    /// Scans a number token from `start`: where it ends and whether it follows RFC 8259's grammar,
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Number-like bytes after a valid prefix (`1.2.3`, `01`) belong to the token and make it invalid.
    @inline(__always)
    static func scanNumber(_ buffer: UnsafeRawBufferPointer, from start: Int) -> (end: Int, valid: Bool) {
        let n = buffer.count
        var i = start
        if i < n, buffer[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        var valid = i > integerStart && !(buffer[integerStart] == UInt8(ascii: "0") && i - integerStart > 1)
        if i < n, buffer[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            valid = valid && i > fractionStart
        }
        if i < n, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") { i += 1 }
            let exponentStart = i
            while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            valid = valid && i > exponentStart
        }
        while i < n, isNumberByte(buffer[i]) {
            i += 1
            valid = false
        }
        return (i, valid)
    }

    @inline(__always)
    static func isNumberByte(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "0") < 10 || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
            || b == UInt8(ascii: "E") || b == UInt8(ascii: "+")
    }
}
