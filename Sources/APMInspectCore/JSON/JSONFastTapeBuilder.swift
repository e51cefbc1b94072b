/// A strict recursive-descent tape builder for well-formed JSON: the fast path.
///
/// Real reports are almost always valid JSON, and for them this builder does the work of ``JSONTapeBuilder`` with
/// far fewer branches per byte (no state machine, no lenient checks). It gives up at the first deviation from
/// RFC 8259, returning nil, and the caller then runs ``JSONTapeBuilder``, which repairs or reports with a precise
/// location. Recursion is bounded by the options' depth limit.
struct JSONFastTapeBuilder {
    private let buffer: UnsafeRawBufferPointer
    private let maxDepth: Int
    private let opaqueDepth: Int
    private let probe: JSONScanning.KeyProbe?
    private var pos = 0
    var nodes: JSONNodeBuffer

    init(buffer: UnsafeRawBufferPointer, maxDepth: Int, opaqueDepth: Int = Int.max, probe: String? = nil) {
        self.buffer = buffer
        self.maxDepth = maxDepth
        self.opaqueDepth = opaqueDepth
        self.probe = probe.flatMap(JSONScanning.KeyProbe.init)
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
        pos = JSONScanning.skipWhitespace(buffer, from: pos)
    }

    private mutating func parseValue(depth: Int) -> Bool {
        let c = buffer[pos]
        switch c {
        case UInt8(ascii: "\""): return parseString()
        case UInt8(ascii: "{"): return depth >= opaqueDepth ? skipOpaque(kind: .object) : parseObject(depth: depth)
        case UInt8(ascii: "["): return depth >= opaqueDepth ? skipOpaque(kind: .array) : parseArray(depth: depth)
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
                guard let more = separator(closing: UInt8(ascii: "}")) else { return false }
                if !more { break }
            }
        }
        close(index, kind: .object, start: start, count: count)
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
                guard let more = separator(closing: UInt8(ascii: "]")) else { return false }
                if !more { break }
            }
        }
        close(index, kind: .array, start: start, count: count)
        return true
    }

    /// After a member or element: true at `,` (whitespace after it skipped), false at `closing`, nil otherwise.
    @inline(__always)
    private mutating func separator(closing: UInt8) -> Bool? {
        skipWhitespace()
        guard pos < buffer.count else { return nil }
        let c = buffer[pos]
        pos += 1
        if c == UInt8(ascii: ",") {
            skipWhitespace()
            return true
        }
        return c == closing ? false : nil
    }

    /// Fills in the container node opened at `index` now that its end is known.
    @inline(__always)
    private mutating func close(_ index: Int, kind: JSONNode.Kind, start: Int, count: UInt32) {
        nodes[index] = JSONNode(
            kind: kind,
            flags: 0,
            start: UInt32(start),
            end: UInt32(pos),
            next: UInt32(nodes.count),
            count: count
        )
    }

    /// Records a container by its byte range: brackets are counted and strings skipped, nothing else is checked.
    private mutating func skipOpaque(kind: JSONNode.Kind) -> Bool {
        var hit = false
        guard let end = JSONScanning.matchingBracket(buffer, from: pos, probe: probe, probeHit: &hit) else {
            return false
        }
        nodes.append(
            JSONNode(
                kind: kind,
                flags: JSONNode.opaqueFlag | (hit ? JSONNode.probeHitFlag : 0),
                start: UInt32(pos),
                end: UInt32(end),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        pos = end
        return true
    }

    @inline(__always)
    private mutating func parseString() -> Bool {
        let start = pos + 1
        let run = JSONScanning.scanStringRun(buffer, from: start)
        guard run.end < buffer.count, buffer[run.end] == UInt8(ascii: "\"") else { return false }
        nodes.append(
            JSONNode(
                kind: .string,
                flags: run.hasEscapes ? JSONNode.hasEscapesFlag : 0,
                start: UInt32(start),
                end: UInt32(run.end),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        pos = run.end + 1
        return true
    }

    @inline(__always)
    private mutating func parseNumber() -> Bool {
        let start = pos
        let (end, valid) = JSONScanning.scanNumber(buffer, from: start)
        guard valid else { return false }
        nodes.append(
            JSONNode(
                kind: .number,
                flags: 0,
                start: UInt32(start),
                end: UInt32(end),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        pos = end
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
