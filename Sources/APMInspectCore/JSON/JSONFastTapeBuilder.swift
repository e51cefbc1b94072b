import ByteAccess

/// A strict tape builder for well-formed JSON: the fast path.
///
/// Real reports are almost always valid JSON, and for them this builder does the work of ``JSONTapeBuilder`` with
/// far fewer branches per byte (no lenient checks). It gives up at the first deviation from RFC 8259, returning
/// false, and the caller then runs ``JSONTapeBuilder``, which repairs or reports with a precise location. Nesting is
/// bounded by the options' depth limit.
///
/// One loop with an explicit stack of open containers, the position and the bytes in local variables: the
/// recursive descent it replaced spent a third of its time entering and leaving functions and reloading the
/// position from memory.
struct JSONFastTapeBuilder {
    private let buffer: BorrowedBytes
    private let maxDepth: Int
    private let opaqueDepth: Int
    private let probe: JSONScanning.KeyProbe?
    /// Skip containers past the depth limit instead of failing (``JSONParseOptions/skipsTooDeep``).
    private let skipsTooDeep: Bool
    var nodes: JSONNodeBuffer
    /// The containers skipped for their depth.
    private(set) var depthCuts = JSONDepthCuts()

    init(
        bytes buffer: BorrowedBytes,
        maxDepth: Int,
        opaqueDepth: Int = Int.max,
        probe: String? = nil,
        skipsTooDeep: Bool = false
    ) {
        self.buffer = buffer
        self.maxDepth = maxDepth
        self.opaqueDepth = opaqueDepth
        self.skipsTooDeep = skipsTooDeep
        self.probe = probe.flatMap(JSONScanning.KeyProbe.init)
        self.nodes = JSONNodeBuffer(capacity: buffer.count / 10)
    }

    /// A container being filled: its node, where it starts, and how many members or elements it has so far.
    private struct Open {
        var node: Int
        var start: Int
        var count: UInt32
        var isObject: Bool
    }

    /// What the loop expects next.
    private enum Step {
        case value
        case key
        case afterValue
    }

    /// Builds the tape with a synthetic root list at index 0 and the value at index 1; false when not strict JSON.
    mutating func build() -> Bool {
        nodes.append(JSONNode(kind: .array, flags: JSONNode.syntheticFlag, start: 0, end: 0, next: 0, count: 1))
        let n = buffer.count
        var p = JSONScanning.skipWhitespace(buffer, from: 0)
        guard p < n else { return false }
        // Containers deeper than the limit are refused before they are opened, so the stack never holds more.
        let stackCapacity = max(1, min(maxDepth, 1 << 16))
        let stack = ElementSlots<Open>(capacity: stackCapacity)
        defer { stack.deallocate() }
        var depth = 0
        var step = Step.value
        while true {
            switch step {
            case .value:
                guard p < n else { return false }
                // The value's depth counts the top level as 1, as the depth limit does.
                let valueDepth = depth + 1
                let c = buffer[unchecked: p]
                if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                    let isObject = c == UInt8(ascii: "{")
                    if valueDepth >= opaqueDepth {
                        guard let end = skipOpaque(from: p, kind: isObject ? .object : .array) else { return false }
                        p = end
                        step = .afterValue
                        continue
                    }
                    // Past the limit, not at it: a container at the limit goes to the lenient builder, which accepts it.
                    if valueDepth > maxDepth, skipsTooDeep {
                        guard let end = skipOpaque(from: p, kind: isObject ? .object : .array) else { return false }
                        depthCuts.add(at: p, in: buffer, maxDepth: maxDepth)
                        p = end
                        step = .afterValue
                        continue
                    }
                    guard valueDepth < maxDepth, depth < stackCapacity else { return false }
                    stack[depth] = Open(node: nodes.count, start: p, count: 0, isObject: isObject)
                    depth += 1
                    nodes.append(
                        JSONNode(
                            kind: isObject ? .object : .array,
                            flags: 0,
                            start: UInt32(truncatingIfNeeded: p),
                            end: 0,
                            next: 0,
                            count: 0
                        )
                    )
                    p = JSONScanning.skipWhitespace(buffer, from: p + 1)
                    guard p < n else { return false }
                    if buffer[unchecked: p] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        p += 1
                        depth -= 1
                        close(stack[depth], end: p)
                        step = .afterValue
                    } else {
                        step = isObject ? .key : .value
                    }
                    continue
                }
                // Scalars are most of the values: handled here, without a call.
                switch c {
                case UInt8(ascii: "\""):
                    guard let end = string(at: p) else { return false }
                    p = end
                case UInt8(ascii: "t"):
                    guard let end = literal("true", at: p, kind: .bool, flags: JSONNode.trueFlag) else { return false }
                    p = end
                case UInt8(ascii: "f"):
                    guard let end = literal("false", at: p, kind: .bool, flags: 0) else { return false }
                    p = end
                case UInt8(ascii: "n"):
                    guard let end = literal("null", at: p, kind: .null, flags: 0) else { return false }
                    p = end
                default:
                    // Plain non-negative integers, most numbers in reports, are scanned here; the rest by the full
                    // grammar.
                    // The value of one below 10⁹ is kept on its node, so readers need not decode its digits again.
                    var end = p + 1
                    var value = UInt32(truncatingIfNeeded: c &- UInt8(ascii: "0"))
                    if c &- UInt8(ascii: "1") < 9 {
                        while end < n, buffer[unchecked: end] &- UInt8(ascii: "0") < 10 {
                            value =
                                value &* 10 &+ UInt32(truncatingIfNeeded: buffer[unchecked: end] &- UInt8(ascii: "0"))
                            end += 1
                        }
                    }
                    if c &- UInt8(ascii: "1") >= 9 || (end < n && JSONScanning.isNumberByte(buffer[unchecked: end])) {
                        let (scanned, valid) = JSONScanning.scanNumber(buffer, from: p)
                        guard valid else { return false }
                        append(.number, flags: 0, start: p, end: scanned)
                        p = scanned
                    } else if end - p <= 9 {
                        nodes.append(
                            JSONNode(
                                kind: .number,
                                flags: JSONNode.smallIntegerFlag,
                                start: UInt32(truncatingIfNeeded: p),
                                end: UInt32(truncatingIfNeeded: end),
                                next: UInt32(truncatingIfNeeded: nodes.count + 1),
                                count: value
                            )
                        )
                        p = end
                    } else {
                        append(.number, flags: 0, start: p, end: end)
                        p = end
                    }
                }
                step = .afterValue
            case .key:
                guard p < n, buffer[unchecked: p] == UInt8(ascii: "\""), let end = string(at: p) else { return false }
                p = JSONScanning.skipWhitespace(buffer, from: end)
                guard p < n, buffer[unchecked: p] == UInt8(ascii: ":") else { return false }
                p = JSONScanning.skipWhitespace(buffer, from: p + 1)
                step = .value
            case .afterValue:
                guard depth > 0 else {
                    // The top-level value is complete: only whitespace may follow.
                    p = JSONScanning.skipWhitespace(buffer, from: p)
                    guard p == n else { return false }
                    nodes[0] = JSONNode(
                        kind: .array,
                        flags: JSONNode.syntheticFlag,
                        start: 0,
                        end: UInt32(n),
                        next: UInt32(nodes.count),
                        count: 1
                    )
                    return true
                }
                stack[depth - 1].count += 1
                p = JSONScanning.skipWhitespace(buffer, from: p)
                guard p < n else { return false }
                let c = buffer[unchecked: p]
                p += 1
                let top = stack[depth - 1]
                if c == UInt8(ascii: ",") {
                    p = JSONScanning.skipWhitespace(buffer, from: p)
                    step = top.isObject ? .key : .value
                } else if c == (top.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    depth -= 1
                    close(top, end: p)
                    step = .afterValue
                } else {
                    return false
                }
            }
        }
    }

    /// Fills in the node of a container that ends at `end` (just after its closing bracket).
    @inline(__always)
    private mutating func close(_ open: Open, end: Int) {
        nodes[open.node] = JSONNode(
            kind: open.isObject ? .object : .array,
            flags: 0,
            start: UInt32(truncatingIfNeeded: open.start),
            end: UInt32(truncatingIfNeeded: end),
            next: UInt32(truncatingIfNeeded: nodes.count),
            count: open.count
        )
    }

    /// Records a container by its byte range: brackets are counted and strings skipped, nothing else is checked.
    private mutating func skipOpaque(from start: Int, kind: JSONNode.Kind) -> Int? {
        var hit = false
        guard let end = JSONScanning.matchingBracket(buffer, from: start, probe: probe, probeHit: &hit) else {
            return nil
        }
        nodes.append(
            JSONNode(
                kind: kind,
                flags: JSONNode.opaqueFlag | (hit ? JSONNode.probeHitFlag : 0),
                start: UInt32(start),
                end: UInt32(end),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        return end
    }

    /// The string whose opening quote is at `quote`: put on the tape, and the offset after its closing quote.
    @inline(__always)
    private mutating func string(at quote: Int) -> Int? {
        let start = quote + 1
        let run = JSONScanning.scanStringRun(buffer, from: start)
        guard run.end < buffer.count, buffer[unchecked: run.end] == UInt8(ascii: "\"") else { return nil }
        append(.string, flags: run.hasEscapes ? JSONNode.hasEscapesFlag : 0, start: start, end: run.end)
        return run.end + 1
    }

    private mutating func literal(_ literal: StaticString, at start: Int, kind: JSONNode.Kind, flags: UInt8) -> Int? {
        let length = literal.utf8CodeUnitCount
        guard start + length <= buffer.count else { return nil }
        guard buffer.matches(literal, at: start) else { return nil }
        append(kind, flags: flags, start: start, end: start + length)
        return start + length
    }

    /// Puts a scalar on the tape.
    ///
    /// Offsets fit in 32 bits: documents are limited to less than 4 GiB before this builder runs, so the
    /// conversions skip their range checks.
    @inline(__always)
    private mutating func append(_ kind: JSONNode.Kind, flags: UInt8, start: Int, end: Int) {
        nodes.append(
            JSONNode(
                kind: kind,
                flags: flags,
                start: UInt32(truncatingIfNeeded: start),
                end: UInt32(truncatingIfNeeded: end),
                next: UInt32(truncatingIfNeeded: nodes.count + 1),
                count: 0
            )
        )
    }
}
