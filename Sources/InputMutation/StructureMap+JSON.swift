import APMInspectCore

extension StructureMap {
    /// Values, keys, numbers and containers from the project's own JSON tape.
    ///
    /// The spans are then where the parsers will see them. An `.ips` file (header line, then body) parses leniently as a list of two fragments.
    mutating func addJSON(_ bytes: [UInt8]) {
        guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 512)) else {
            addText(bytes, crashReport: false)
            return
        }
        var stack: [JSONElement] = [document.root]
        var visited = 0
        while let element = stack.popLast(), visited < Self.maxSpans {
            visited += 1
            let range = element.sourceRange
            let real = !element.isSynthetic && range.lowerBound < range.upperBound && range.upperBound <= bytes.count
            if real {
                add(range, .jsonValue)
                boundary(range.lowerBound)
                boundary(range.upperBound)
                if element.kind == .number { add(range, .jsonNumber) }
            }
            switch element.kind {
            case .object:
                if real { add(range, .jsonContainer) }
                var members: [JSONElement] = []
                element.forEachMemberRaw { _, value in
                    members.append(value)
                    return members.count < Self.maxSpans
                }
                for value in members {
                    if let key = Self.keyRange(before: value.sourceRange.lowerBound, in: bytes) {
                        add(key, .jsonKey)
                        boundary(key.lowerBound)
                    }
                }
                stack.append(contentsOf: members.reversed())
            case .array:
                if real { add(range, .jsonContainer) }
                var items: [JSONElement] = []
                for item in element.elements {
                    items.append(item)
                    if items.count >= Self.maxSpans { break }
                }
                stack.append(contentsOf: items.reversed())
            default:
                break
            }
        }
    }

    /// The quoted key in front of the value starting at `valueStart` (`"key" : value`), found by reading back.
    static func keyRange(before valueStart: Int, in bytes: [UInt8]) -> Range<Int>? {
        let b = bytes
        var i = min(valueStart, b.count) - 1
        func skipSpace() { while i >= 0, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i -= 1 } }
        skipSpace()
        guard i >= 0, b[i] == UInt8(ascii: ":") else { return nil }
        i -= 1
        skipSpace()
        guard i >= 0, b[i] == UInt8(ascii: "\"") else { return nil }
        let closing = i
        i -= 1
        let limit = max(closing - 4096, 0)
        while i >= limit {
            if b[i] == UInt8(ascii: "\""), i == 0 || b[i - 1] != UInt8(ascii: "\\") { return i..<(closing + 1) }
            i -= 1
        }
        return nil
    }
}
