extension StructureMap {
    /// Lines; for crash reports also the values of `Key: Value` lines and the columns of frame and image lines.
    mutating func addText(_ bytes: [UInt8], crashReport: Bool) {
        var found: [(Range<Int>, Role)] = []
        var lineStarts: [Int] = []
        do {
            let b = bytes
            var start = 0
            while start < b.count, found.count < Self.maxSpans {
                var end = start
                while end < b.count, b[end] != 0x0A { end += 1 }
                var contentEnd = end
                if contentEnd > start, b[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                lineStarts.append(start)
                if contentEnd > start {
                    found.append((start..<contentEnd, .line))
                    if crashReport {
                        Self.crashLineSpans(b, start..<contentEnd, into: &found)
                    }
                }
                start = end + 1
            }
        }
        for start in lineStarts { boundary(start) }
        for (range, role) in found { add(range, role) }
    }

    /// `Key: Value` → the value; `12  libfoo.dylib  0x1a2b  symbol + 4` and `0x1000 - 0x1fff name arm64 <uuid>` →
    /// each column.
    private static func crashLineSpans(
        _ b: [UInt8],
        _ line: Range<Int>,
        into found: inout [(Range<Int>, Role)]
    ) {
        var i = line.lowerBound
        while i < line.upperBound, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        guard i < line.upperBound else { return }
        let first = b[i]
        let isDigit = first >= 0x30 && first <= 0x39
        if isDigit {
            // A frame line starts with its index, an image line with `0x`: both are columns.
            var k = i
            var columns: [Range<Int>] = []
            while k < line.upperBound, columns.count < 64 {
                while k < line.upperBound, b[k] == 0x20 || b[k] == 0x09 { k += 1 }
                let columnStart = k
                while k < line.upperBound, b[k] != 0x20, b[k] != 0x09 { k += 1 }
                if k > columnStart { columns.append(columnStart..<k) }
            }
            if columns.count >= 3 {
                for column in columns { found.append((column, .frameColumn)) }
                return
            }
        }
        // `Key: Value`: a key of letters, digits, spaces and a few marks, then `:`.
        var k = i
        while k < line.upperBound, k - i < 64 {
            let c = b[k]
            if c == UInt8(ascii: ":") { break }
            let keyByte =
                (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x20
                || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "(") || c == UInt8(ascii: ")")
            if !keyByte { return }
            k += 1
        }
        guard k > i, k < line.upperBound, b[k] == UInt8(ascii: ":") else { return }
        var valueStart = k + 1
        while valueStart < line.upperBound, b[valueStart] == 0x20 || b[valueStart] == 0x09 { valueStart += 1 }
        if valueStart < line.upperBound { found.append((valueStart..<line.upperBound, .fieldValue)) }
    }
}
