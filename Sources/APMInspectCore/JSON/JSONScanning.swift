import ByteAccess

#if arch(x86_64)
    import CBlockScan
#endif

/// The byte-level scans both tape builders share: whitespace, string runs and the number grammar.
enum JSONScanning {
    /// The offset of the first byte at or after `start` that is not JSON whitespace.
    @inline(__always)
    static func skipWhitespace(_ buffer: BorrowedBytes, from start: Int) -> Int {
        let n = buffer.count
        var p = start
        while p < n {
            let b = buffer[unchecked: p]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            p += 1
        }
        return p
    }

    /// Scans a string's content from `start` (just after the opening quote) to the first unescaped quote or
    /// control character; returns that offset (or the end of input) and whether an escape was seen.
    @inline(__always)
    static func scanStringRun(_ buffer: BorrowedBytes, from start: Int) -> (end: Int, hasEscapes: Bool) {
        let n = buffer.count
        var p = start
        var escapes = false
        #if arch(x86_64)
            // Sixteen bytes at a time with SSE2 compares (`block_scan.h`): long strings (a HAR's bodies, base64 by
            // the kilobyte) take a quarter of the word loop's instructions.
            while p + 16 <= n {
                let stops = buffer.stringStops16(uncheckedAt: p)
                if stops == 0 {
                    p += 16
                    continue
                }
                p += stops.trailingZeroBitCount
                if buffer[unchecked: p] != UInt8(ascii: "\\") { return (p, escapes) }
                escapes = true
                p += 2
            }
        #endif
        // Eight bytes at a time: the lowest marked byte of a word is exactly the first quote, backslash or control
        // byte in it, so the scan jumps straight there instead of stepping through the word's last bytes.
        while p + 8 <= n {
            let mask = specialStringByteMask(buffer.word(uncheckedAt: p))
            if mask == 0 {
                p += 8
                continue
            }
            p += mask.trailingZeroBitCount >> 3
            if buffer[unchecked: p] != UInt8(ascii: "\\") { return (p, escapes) }
            escapes = true
            p += 2
        }
        while p < n {
            let b = buffer[unchecked: p]
            if b == UInt8(ascii: "\"") || b < 0x20 { return (p, escapes) }
            if b == UInt8(ascii: "\\") {
                escapes = true
                p += 2
                continue
            }
            p += 1
        }
        return (n, escapes)
    }

    /// The offset just after the bracket that closes the one at `start`, skipping strings; nil when the input ends
    /// first, the nesting exceeds `maxNesting`, or a string holds a raw control byte.
    ///
    /// Nothing else is validated, except that strings hold no raw control byte: a string left open by a lost quote
    /// then ends at the line break instead of swallowing the lines after it, which would otherwise pair brackets
    /// wrongly and hand the caller a container that is not the one the text holds (a fuzz finding in
    /// FuzzJetsamLimits).
    ///
    /// `memory-limits` skips every process entry it does not need through here, so this loop is most of that
    /// command's work. Visiting each quote, line break and bracket one by one cost about 9 instructions a byte, so
    /// 64-byte blocks are classified at once, as simdjson does (SSE2 compares on x86-64, 64-bit words elsewhere): a bitmap
    /// of quotes, whose prefix XOR tells which bytes lie inside strings; then a block without brackets or control
    /// bytes inside strings needs no per-byte step beyond the probe, and one with some visits only those bytes and
    /// the opening quotes. Brackets are walked rather than counted by popcount: there are one or two a block, and
    /// a count that could reach 0 or the limit would need the walk anyway.
    ///
    /// A block holding a backslash (or `|`, which shares its test) goes through the word-at-a-time path instead,
    /// which follows escapes exactly (a backslash escapes only inside a string, which a mask of escapes computed
    /// before the strings are known cannot tell) and may leave the next block unaligned; so do all blocks when
    /// `maxNesting` is below 1, where that path's check after every byte it visits decides the result.
    ///
    /// - Parameters:
    ///   - buffer: The document's bytes.
    ///   - start: The offset of the opening bracket.
    ///   - maxNesting: Deepest nesting accepted inside the container.
    ///   - probe: Up to 8 bytes (a quoted key such as `"reason"`) to look for at the start of strings directly inside
    ///     the container.
    ///   - probeHit: Set to true when the probe was seen.
    /// - Returns: The offset after the closing bracket, or nil.
    static func matchingBracket(
        _ buffer: BorrowedBytes,
        from start: Int,
        maxNesting: Int = 10_000,
        probe: KeyProbe? = nil,
        probeHit: inout Bool
    ) -> Int? {
        let n = buffer.count
        var p = start + 1
        var nesting = 1
        var inString = false
        // Set by a raw control byte inside a string: the container is not strict JSON.
        var broken = false
        // Returns the offset after the closing bracket; nil to go on with the next byte.
        func visit(_ b: UInt8, at i: Int) -> Int? {
            if inString {
                if b == UInt8(ascii: "\"") {
                    inString = false
                } else if b < 0x20 {
                    broken = true
                }
                return nil
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = true
                if let probe, nesting == 1, !probeHit, probe.matches(buffer, at: i) { probeHit = true }
            case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                nesting -= 1
                if nesting == 0 { return i + 1 }
            default: break
            }
            return nil
        }
        // With nesting starting at 1 and at most `maxNesting`, only an opening bracket can break the limit, so the
        // block path checks it there alone.
        let classify = maxNesting >= 1
        // Blocks that hold a backslash are handed to the word path up to here, which follows escapes exactly.
        var wordsUntil = p
        scan: while p + 8 <= n {
            if classify, p >= wordsUntil, p + 64 <= n {
                let block = BlockFlags(buffer, at: p)
                if block.escapes != 0 {
                    wordsUntil = p &+ 64
                    continue scan
                }
                // Inclusive prefix XOR: a byte's bit is set when it lies inside a string (an opening quote counts
                // as inside, a closing one as outside).
                var inside = block.quotes ^ (block.quotes << 1)
                inside ^= inside << 2
                inside ^= inside << 4
                inside ^= inside << 8
                inside ^= inside << 16
                inside ^= inside << 32
                if inString { inside = ~inside }
                inString = inside >> 63 != 0
                let bad = block.controls & inside
                let opening = block.quotes & inside
                let brackets = block.brackets & ~inside
                if brackets | bad == 0 {
                    // No bracket: every byte of the block is at the same nesting.
                    if nesting == 1, !probeHit, let probe {
                        var quote = opening
                        while quote != 0 {
                            if probe.matches(buffer, at: p &+ quote.trailingZeroBitCount) {
                                probeHit = true
                                break
                            }
                            quote &= quote &- 1
                        }
                    }
                    p &+= 64
                    continue scan
                }
                // Brackets outside strings are few: visit them, and the quotes when the probe needs the nesting at
                // each, in order.
                var events = brackets | bad | (!probeHit && probe != nil ? opening : 0)
                while events != 0 {
                    let bit = events & (0 &- events)
                    events ^= bit
                    let i = p &+ bit.trailingZeroBitCount
                    if bit & bad != 0 { return nil }
                    if bit & brackets != 0 {
                        // `[` and `{` have bit 1 set, `]` and `}` clear.
                        if buffer[unchecked: i] & 2 != 0 {
                            nesting += 1
                            if nesting > maxNesting { return nil }
                        } else {
                            nesting -= 1
                            if nesting == 0 { return i + 1 }
                        }
                    } else if let probe, nesting == 1, !probeHit, probe.matches(buffer, at: i) {
                        probeHit = true
                    }
                }
                p &+= 64
                continue scan
            }
            var mask = structuralMask(buffer.word(uncheckedAt: p))
            while mask != 0 {
                let i = p + mask.trailingZeroBitCount >> 3
                mask &= mask - 1
                let b = buffer[unchecked: i]
                if b == UInt8(ascii: "\\") {
                    if inString {
                        // The escaped byte may be a quote: resume just after it.
                        p = i + 2
                        continue scan
                    }
                    continue
                }
                if let end = visit(b, at: i) { return end }
                if nesting > maxNesting || broken { return nil }
            }
            p += 8
        }
        while p < n {
            let b = buffer[unchecked: p]
            if b == UInt8(ascii: "\\"), inString {
                p += 2
                continue
            }
            if let end = visit(b, at: p) { return end }
            if nesting > maxNesting || broken { return nil }
            p += 1
        }
        return nil
    }

    /// ``matchingBracket(_:from:maxNesting:probe:probeHit:)`` without a key probe.
    static func matchingBracket(_ buffer: BorrowedBytes, from start: Int) -> Int? {
        var unused = false
        return matchingBracket(buffer, from: start, probeHit: &unused)
    }

    /// A short byte string compared in one 64-bit load.
    struct KeyProbe: Sendable, Equatable {
        let value: UInt64
        let mask: UInt64
        let length: Int

        /// A probe for `text`, which must be 1 to 8 UTF-8 bytes.
        init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard (1...8).contains(bytes.count) else { return nil }
            var value: UInt64 = 0
            for (k, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(k)) }
            self.value = value
            self.length = bytes.count
            self.mask = bytes.count == 8 ? ~0 : (1 << (8 * UInt64(bytes.count))) - 1
        }

        @inline(__always)
        func matches(_ buffer: BorrowedBytes, at i: Int) -> Bool {
            if i + 8 <= buffer.count {
                // Little-endian load: byte k of the buffer is bits 8k..8k+7.
                return buffer.word(uncheckedAt: i) & mask == value
            }
            guard i + length <= buffer.count else { return false }
            for k in 0..<length where buffer[unchecked: i + k] != UInt8(truncatingIfNeeded: value >> (8 * UInt64(k))) {
                return false
            }
            return true
        }
    }

    /// The high bits of the eight bytes of `flags` (nothing else set) as the low eight bits, byte 0 lowest.
    ///
    /// The multiplier's terms move byte k's bit 8k+7 to bit 56+k; every other product lands below bit 56 or past
    /// bit 63, and no two land on the same bit, so nothing carries into the result.
    @inline(__always)
    static func packHighBits(_ flags: UInt64) -> UInt64 {
        (flags &* 0x0002_0408_1020_4081) >> 56
    }

    /// One bit per byte of a 64-byte block (bit k for byte k) for each class of byte the bracket matcher acts on.
    ///
    /// Exact, with no false flags (unlike the borrow trick, which can flag the byte above a match): the quote bits
    /// feed a prefix XOR, where one false quote would flip every byte after it. Bytes from 0x80 up are never
    /// flagged; in JSON they only occur inside strings.
    struct BlockFlags {
        private(set) var quotes: UInt64 = 0
        /// Bytes below 0x20.
        private(set) var controls: UInt64 = 0
        /// `[`, `]`, `{` and `}`.
        private(set) var brackets: UInt64 = 0
        /// Only tested for zero: `\\` sends the block to the escape-aware word path (so does `|` in the word
        /// classification, where it shares the test; the SSE2 one marks backslashes exactly).
        private(set) var escapes: UInt64 = 0

        /// Reads the 64 bytes from `p`, which the caller has checked are in `buffer`: with SSE2 compares on x86-64
        /// (`block_scan.h`), else as 64-bit words.
        @inline(__always)
        init(_ buffer: BorrowedBytes, at p: Int) {
            #if arch(x86_64)
                let flags = buffer.blockFlags64(uncheckedAt: p)
                self.init(
                    quotes: flags.quotes,
                    controls: flags.controls,
                    brackets: flags.brackets,
                    escapes: flags.backslashes
                )
            #else
                self.init(wordsOf: buffer, at: p)
            #endif
        }

        @inline(__always)
        private init(quotes: UInt64, controls: UInt64, brackets: UInt64, escapes: UInt64) {
            self.quotes = quotes
            self.controls = controls
            self.brackets = brackets
            self.escapes = escapes
        }

        /// ``init(_:at:)`` as 64-bit words, where `escapes` is non-zero for a `|` too.
        @inline(__always)
        init(wordsOf buffer: BorrowedBytes, at p: Int) {
            // Unrolled by hand: as a loop the shifts stay variable and the constants are loaded again each turn.
            add(buffer.word(uncheckedAt: p), at: 0)
            add(buffer.word(uncheckedAt: p &+ 8), at: 8)
            add(buffer.word(uncheckedAt: p &+ 16), at: 16)
            add(buffer.word(uncheckedAt: p &+ 24), at: 24)
            add(buffer.word(uncheckedAt: p &+ 32), at: 32)
            add(buffer.word(uncheckedAt: p &+ 40), at: 40)
            add(buffer.word(uncheckedAt: p &+ 48), at: 48)
            add(buffer.word(uncheckedAt: p &+ 56), at: 56)
        }

        @inline(__always)
        private mutating func add(_ word: UInt64, at shift: UInt64) {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            // Seven bits a byte: no subtraction below borrows from the next byte.
            let low = word & ~highs
            let ascii = ~word & highs
            let quoteFlags = (highs &- (low ^ (ones &* 0x22))) & ascii
            let controlFlags = ((ones &* 0x9F) &- low) & ascii
            // `[` `\` `]` and `{` `|` `}` all fold to 0x7B...0x7D; brackets have bit 0 set, `\` and `|` clear.
            let folded = low | (ones &* 0x20)
            let special = (folded &+ (ones &* 0x05)) & ((ones &* 0xFD) &- folded) & ascii
            quotes |= packHighBits(quoteFlags) << shift
            controls |= packHighBits(controlFlags) << shift
            brackets |= packHighBits(special & (word << 7)) << shift
            escapes |= special & ~(word << 7)
        }
    }

    /// One bit (the high bit of the byte) for each byte of `word` that may be `"`, `\\`, `{`, `}`, `[`, `]` or a
    /// control byte (below 0x20).
    ///
    /// Exact for quotes, backslashes and control bytes; the bracket test also marks a few letters (`Y`, `_`, `y` …),
    /// which the caller skips after reading the byte.
    @inline(__always)
    static func structuralMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // `[` 0x5B, `]` 0x5D, `{` 0x7B and `}` 0x7D all become 0x7F when OR-ed with 0x26.
        let brackets = (word | (ones &* 0x26)) ^ (ones &* 0x7F)
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // A byte below 0x20 has its top three bits clear.
        let control = word & (ones &* 0xE0)
        return zeroBytes(brackets) | zeroBytes(quote) | zeroBytes(backslash) | zeroBytes(control)
    }

    /// The high bit of each byte of `x` that is zero, with no false positives (unlike the borrow trick).
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// The high bit of each byte of `word` (loaded little-endian) that may be `"`, `\\` or below 0x20; the lowest
    /// marked byte is always a real one (the subtraction's borrows only mark bytes above it).
    @inline(__always)
    static func specialStringByteMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (word &- (ones &* 0x20)) & ~word
        return (zeroQuote | zeroBackslash | control) & highs
    }

    /// True when any byte of `word` is `"`, `\\` or below 0x20 (the bytes that end a plain run inside a string).
    @inline(__always)
    static func hasSpecialStringByte(_ word: UInt64) -> Bool {
        specialStringByteMask(word) != 0
    }

    /// Scans a number token from `start`: where it ends and whether it follows RFC 8259's grammar,
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Number-like bytes after a valid prefix (`1.2.3`, `01`) belong to the token and make it invalid.
    @inline(__always)
    static func scanNumber(_ buffer: BorrowedBytes, from start: Int) -> (end: Int, valid: Bool) {
        let n = buffer.count
        var i = start
        // Most numbers in reports are plain non-negative integers: digits, then a byte that cannot continue a
        // number. Those end here; anything else takes the full grammar below.
        if i < n, buffer[unchecked: i] &- UInt8(ascii: "1") < 9 {
            i += 1
            while i < n, buffer[unchecked: i] &- UInt8(ascii: "0") < 10 { i += 1 }
            if i == n || !isNumberByte(buffer[unchecked: i]) { return (i, true) }
            i = start
        }
        if i < n, buffer[unchecked: i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < n, buffer[unchecked: i] &- UInt8(ascii: "0") < 10 { i += 1 }
        var valid = i > integerStart && !(buffer[unchecked: integerStart] == UInt8(ascii: "0") && i - integerStart > 1)
        if i < n, buffer[unchecked: i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, buffer[unchecked: i] &- UInt8(ascii: "0") < 10 { i += 1 }
            valid = valid && i > fractionStart
        }
        if i < n, buffer[unchecked: i] == UInt8(ascii: "e") || buffer[unchecked: i] == UInt8(ascii: "E") {
            i += 1
            if i < n, buffer[unchecked: i] == UInt8(ascii: "+") || buffer[unchecked: i] == UInt8(ascii: "-") { i += 1 }
            let exponentStart = i
            while i < n, buffer[unchecked: i] &- UInt8(ascii: "0") < 10 { i += 1 }
            valid = valid && i > exponentStart
        }
        while i < n, isNumberByte(buffer[unchecked: i]) {
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
