/// The XML declaration at the start of a document (`<?xml version="1.0" encoding="…"?>`).
///
/// The reader hands libxml2 UTF-8 only (it stops at the first byte that is not). A declaration naming another
/// encoding would make libxml2 decode the rest differently from what every check before it saw: under `UTF-7`,
/// ASCII `+ADwAPw-x+AD8APg-` becomes `<?x?>`, the processing instruction that crashes FoundationXML. The
/// encoding is therefore blanked (spaces, so lines and columns stay) unless it already says UTF-8.
enum XMLDeclaration {
    /// `bytes` with a non-UTF-8 `encoding="…"` of the leading declaration blanked, and the name it gave.
    static func forcingUTF8(_ bytes: [UInt8]) -> (bytes: [UInt8], declared: String?) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        let open = Array("<?xml".utf8)
        guard bytes.count >= start + open.count, Array(bytes[start..<(start + open.count)]) == open else {
            return (bytes, nil)
        }
        // The declaration ends at the first `?>`; it is short, so a bounded look is enough.
        let limit = Swift.min(bytes.count, start + 1024)
        var end = start + open.count
        while end + 1 < limit, !(bytes[end] == 0x3F && bytes[end + 1] == 0x3E) { end += 1 }
        guard end + 1 < limit else { return (bytes, nil) }
        let key = Array("encoding".utf8)
        var k = start + open.count
        while k + key.count <= end {
            guard Array(bytes[k..<(k + key.count)]) == key else {
                k += 1
                continue
            }
            // `encoding`, blanks, `=`, blanks, a quoted value.
            var v = k + key.count
            while v < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[v]) { v += 1 }
            guard v < end, bytes[v] == 0x3D else { return (bytes, nil) }
            v += 1
            while v < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[v]) { v += 1 }
            guard v < end, bytes[v] == 0x22 || bytes[v] == 0x27 else { return (bytes, nil) }
            let quote = bytes[v]
            var close = v + 1
            while close < end, bytes[close] != quote { close += 1 }
            guard close < end else { return (bytes, nil) }
            let name = String(decoding: bytes[(v + 1)..<close], as: UTF8.self)
            let normalised = name.lowercased().filter { $0 != "-" && $0 != "_" }
            if normalised == "utf8" { return (bytes, nil) }
            var out = bytes
            for i in k...close where out[i] != 0x0A && out[i] != 0x0D { out[i] = 0x20 }
            return (out, name)
        }
        return (bytes, nil)
    }
}
