/// A strict recursive-descent tape builder for well-formed JSON: the fast path.
///
/// Real reports are almost always valid JSON, and for them this builder does the work of ``JSONTapeBuilder`` with
/// far fewer branches per byte (no state machine, no lenient checks). It gives up at the first deviation from
/// RFC 8259, returning nil, and the caller then runs ``JSONTapeBuilder``, which repairs or reports with a precise
/// location. Recursion is bounded by the options' depth limit.
struct JSONFastTapeBuilder {
    private let buffer: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var pos = 0
    var nodes: JSONNodeBuffer

    init(buffer: UnsafeRawBufferPointer, maxDepth: Int) {
        self.buffer = buffer
        self.maxDepth = maxDepth
        self.nodes = JSONNodeBuffer(capacity: buffer.count / 10)
    }

    /// Builds the tape with a synthetic root list at index 0 and the value at index 1; nil when not strict JSON.
    mutating func build() -> Bool {
        nodes.append(JSONNode(kind: .array, flags: JSONNode.syntheticFlag, start: 0, end: 0, next: 0, count: 1))
        skipWhitespace()
        guard pos < buffer.count, parseValue(depth: 1) else { return false }
        skipWhitespace()
        guard pos == buffer.count else { return false }
        nodes[0] = JSONNode(
            kind: .array,
            flags: JSONNode.syntheticFlag,
            start: 0,
            end: UInt32(buffer.count),
            next: UInt32(nodes.count),
            count: 1
        )
        return true
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        let buffer = self.buffer
        let n = buffer.count
        var p = pos
        while p < n {
            let b = buffer[p]
            guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { break }
            p += 1
        }
        pos = p
    }

    private mutating func parseValue(depth: Int) -> Bool {
        let c = buffer[pos]
        switch c {
        case UInt8(ascii: "\""): return parseString()
        case UInt8(ascii: "{"): return parseObject(depth: depth)
        case UInt8(ascii: "["): return parseArray(depth: depth)
        case UInt8(ascii: "t"): return parseLiteral("true", kind: .bool, flags: JSONNode.trueFlag)
        case UInt8(ascii: "f"): return parseLiteral("false", kind: .bool, flags: 0)
        case UInt8(ascii: "n"): return parseLiteral("null", kind: .null, flags: 0)
        default: return parseNumber()
        }
    }

    private mutating func parseObject(depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        let index = nodes.count
        let start = pos
        nodes.append(JSONNode(kind: .object, flags: 0, start: UInt32(start), end: 0, next: 0, count: 0))
        pos += 1
        skipWhitespace()
        var count: UInt32 = 0
        let n = buffer.count
        if pos < n, buffer[pos] == UInt8(ascii: "}") {
            pos += 1
        } else {
            while true {
                guard pos < n, buffer[pos] == UInt8(ascii: "\""), parseString() else { return false }
                skipWhitespace()
                guard pos < n, buffer[pos] == UInt8(ascii: ":") else { return false }
                pos += 1
                skipWhitespace()
                guard pos < n, parseValue(depth: depth + 1) else { return false }
                count += 1
                skipWhitespace()
                guard pos < n else { return false }
                let c = buffer[pos]
                pos += 1
                if c == UInt8(ascii: ",") {
                    skipWhitespace()
                    continue
                }
                if c == UInt8(ascii: "}") { break }
                return false
            }
        }
        nodes[index] = JSONNode(
            kind: .object,
            flags: 0,
            start: UInt32(start),
            end: UInt32(pos),
            next: UInt32(nodes.count),
            count: count
        )
        return true
    }

    private mutating func parseArray(depth: Int) -> Bool {
        guard depth < maxDepth else { return false }
        let index = nodes.count
        let start = pos
        nodes.append(JSONNode(kind: .array, flags: 0, start: UInt32(start), end: 0, next: 0, count: 0))
        pos += 1
        skipWhitespace()
        var count: UInt32 = 0
        let n = buffer.count
        if pos < n, buffer[pos] == UInt8(ascii: "]") {
            pos += 1
        } else {
            while true {
                guard pos < n, parseValue(depth: depth + 1) else { return false }
                count += 1
                skipWhitespace()
                guard pos < n else { return false }
                let c = buffer[pos]
                pos += 1
                if c == UInt8(ascii: ",") {
                    skipWhitespace()
                    continue
                }
                if c == UInt8(ascii: "]") { break }
                return false
            }
        }
        nodes[index] = JSONNode(
            kind: .array,
            flags: 0,
            start: UInt32(start),
            end: UInt32(pos),
            next: UInt32(nodes.count),
            count: count
        )
        return true
    }

    private mutating func parseString() -> Bool {
        let buffer = self.buffer
        let n = buffer.count
        let start = pos + 1
        var p = start
        var flags: UInt8 = 0
        while p < n {
            let b = buffer[p]
            if b == UInt8(ascii: "\"") {
                nodes.append(
                    JSONNode(
                        kind: .string,
                        flags: flags,
                        start: UInt32(start),
                        end: UInt32(p),
                        next: UInt32(nodes.count + 1),
                        count: 0
                    )
                )
                pos = p + 1
                return true
            }
            if b == UInt8(ascii: "\\") {
                flags |= JSONNode.hasEscapesFlag
                p += 2
                continue
            }
            if b < 0x20 { return false }
            p += 1
            while p + 8 <= n,
                !JSONTapeBuilder.hasSpecialStringByte(buffer.loadUnaligned(fromByteOffset: p, as: UInt64.self))
            {
                p += 8
            }
        }
        return false
    }

    private mutating func parseNumber() -> Bool {
        let buffer = self.buffer
        let n = buffer.count
        let start = pos
        var i = pos
        if i < n, buffer[i] == UInt8(ascii: "-") { i += 1 }
        let integerStart = i
        while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        guard i > integerStart, !(buffer[integerStart] == UInt8(ascii: "0") && i - integerStart > 1) else {
            return false
        }
        if i < n, buffer[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            guard i > fractionStart else { return false }
        }
        if i < n, buffer[i] == UInt8(ascii: "e") || buffer[i] == UInt8(ascii: "E") {
            i += 1
            if i < n, buffer[i] == UInt8(ascii: "+") || buffer[i] == UInt8(ascii: "-") { i += 1 }
            let exponentStart = i
            while i < n, buffer[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            guard i > exponentStart else { return false }
        }
        // A number must be followed by a delimiter, and a top-level number cut at the end is still complete.
        nodes.append(
            JSONNode(
                kind: .number,
                flags: 0,
                start: UInt32(start),
                end: UInt32(i),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        pos = i
        return true
    }

    private mutating func parseLiteral(_ literal: StaticString, kind: JSONNode.Kind, flags: UInt8) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard pos + length <= buffer.count else { return false }
        let base = literal.utf8Start
        for i in 0..<length where buffer[pos + i] != base[i] { return false }
        nodes.append(
            JSONNode(
                kind: kind,
                flags: flags,
                start: UInt32(pos),
                end: UInt32(pos + length),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        pos += length
        return true
    }
}
