import ByteAccess
import PropertyBased
import Testing

@testable import APMInspectCore

@Suite struct OpaqueContainerTests {
    private typealias Probe = JSONScanning.KeyProbe

    /// A byte-by-byte reference for the bracket matcher.
    private func referenceMatch(_ bytes: [UInt8], from start: Int) -> Int? {
        var nesting = 0
        var inString = false
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = false }
                // A raw control byte ends the match: strict JSON strings hold none.
                if b < 0x20 { return nil }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                nesting += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                nesting -= 1
                if nesting == 0 { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    @Test func matchingBracketAgreesWithAByteByByteScan() async {
        let alphabet = Array(#"{}[]"\ aYy_:,0"#.utf8) + [0x0A, 0x09, 0x1F]
        let gen = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...120)
        await propertyCheck(count: 500, input: gen) { tail in
            let bytes = [UInt8(ascii: "{")] + tail
            let fast = bytes.withBorrowedBytes { JSONScanning.matchingBracket($0, from: 0) }
            #expect(fast == referenceMatch(bytes, from: 0))
        }
    }

    /// The word-at-a-time matcher as it was before blocks were classified: the block matcher must give the same
    /// end and probe result for every input, including invalid JSON and limits that the byte reference ignores.
    private static func wordVisitMatch(
        _ buffer: BorrowedBytes,
        from start: Int,
        maxNesting: Int,
        probe: Probe?,
        probeHit: inout Bool
    ) -> Int? {
        let n = buffer.count
        var p = start + 1
        var nesting = 1
        var inString = false
        var broken = false
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
        words: while p + 8 <= n {
            var mask = JSONScanning.structuralMask(buffer.word(at: p) ?? 0)
            while mask != 0 {
                let i = p + mask.trailingZeroBitCount >> 3
                mask &= mask - 1
                let b = buffer[i] ?? 0
                if b == UInt8(ascii: "\\") {
                    if inString {
                        p = i + 2
                        continue words
                    }
                    continue
                }
                if let end = visit(b, at: i) { return end }
                if nesting > maxNesting || broken { return nil }
            }
            p += 8
        }
        while p < n {
            let b = buffer[p] ?? 0
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

    private static let probes: [Probe?] = [
        nil, Probe(#""reason""#), Probe(#"""#), Probe(#""a"#), Probe(#""\"#), Probe(#""}"#), Probe(#""a""#),
    ]
    private static let nestingLimits = [-1, 0, 1, 2, 3, 4, 10_000]

    /// Compares the matcher with ``wordVisitMatch(_:from:maxNesting:probe:probeHit:)``, starting with the probe both
    /// unseen and already seen; returns the end for callers that also check it against the byte reference.
    @discardableResult
    private static func expectSameAsWordVisit(
        _ bytes: [UInt8],
        from start: Int = 0,
        maxNesting: Int = 10_000,
        probe: Probe? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Int? {
        bytes.withBorrowedBytes { buffer in
            var end: Int?
            for initiallyHit in [false, true] {
                var hit = initiallyHit
                var referenceHit = initiallyHit
                end = JSONScanning.matchingBracket(
                    buffer,
                    from: start,
                    maxNesting: maxNesting,
                    probe: probe,
                    probeHit: &hit
                )
                let reference = wordVisitMatch(
                    buffer,
                    from: start,
                    maxNesting: maxNesting,
                    probe: probe,
                    probeHit: &referenceHit
                )
                #expect(end == reference, "end, input \(bytes), limit \(maxNesting)", sourceLocation: sourceLocation)
                #expect(hit == referenceHit, "probe, input \(bytes)", sourceLocation: sourceLocation)
            }
            return end
        }
    }

    @Test func matchesTheWordVisitOnDenseAlphabets() async {
        let alphabets: [[UInt8]] = [
            Array(#"{}[]"\ aYy_:,0|r"#.utf8) + [0x0A, 0x09, 0x1F, 0x00, 0x7F, 0xC3, 0xA9],
            Array(#"\\\\""{}a"#.utf8) + [0x0A],
            Array(#"\\\\\"""" "#.utf8) + [0x01],
        ]
        let gen = zip(
            Gen.int(in: 0...(alphabets.count - 1)),
            Gen.uint64().array(of: 0...600),
            Gen.int(in: 0...(Self.probes.count - 1)),
            Gen.int(in: 0...(Self.nestingLimits.count - 1)),
            Gen.int(in: 0...9)
        )
        await propertyCheck(count: 600, input: gen) { input in
            let (alphabetIndex, picks, probeIndex, limitIndex, prefix) = input
            let alphabet = alphabets[alphabetIndex]
            let tail = picks.map { alphabet[Int($0 % UInt64(alphabet.count))] }
            let bytes = Array(repeating: UInt8(ascii: "a"), count: prefix) + [UInt8(ascii: "{")] + tail
            let end = Self.expectSameAsWordVisit(
                bytes,
                from: prefix,
                maxNesting: Self.nestingLimits[limitIndex],
                probe: Self.probes[probeIndex]
            )
            if Self.nestingLimits[limitIndex] == 10_000 {
                #expect(end == referenceMatch(bytes, from: prefix))
            }
        }
    }

    /// Nested objects and arrays with escaped keys, in compact or pretty layout, sometimes damaged by a stray quote,
    /// backslash, bracket or control byte, or cut short.
    private static func realisticJSON(seed: UInt64) -> [UInt8] {
        var state = seed
        func next() -> Int {
            // SplitMix64: reproducible from the seed alone.
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        func pick(_ count: Int) -> Int { next() % count }
        var out: [UInt8] = []
        let pretty = pick(2) == 0
        let pieces = [#"\""#, #"\\"#, #"\/"#, #"\n"#, #"\u00e9"#, "[", "}", "é", "reason", " ", "{\"", "]\\"]
        func string() {
            out.append(UInt8(ascii: "\""))
            for _ in 0..<pick(14) {
                if pick(3) == 0 {
                    out += Array(pieces[pick(pieces.count)].utf8)
                } else {
                    out.append(UInt8(ascii: "a") + UInt8(pick(26)))
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func newline(_ depth: Int) {
            guard pretty else { return }
            out.append(0x0A)
            out += Array(repeating: UInt8(ascii: " "), count: 2 * depth)
        }
        func value(_ depth: Int) {
            switch pick(depth >= 4 ? 3 : 6) {
            case 0: out += Array(String(next() % 100_000).utf8)
            case 1: string()
            case 2: out += Array(["true", "false", "null"][pick(3)].utf8)
            case 3, 4: container(depth + 1, object: true)
            default: container(depth + 1, object: false)
            }
        }
        func container(_ depth: Int, object: Bool) {
            out.append(UInt8(ascii: object ? "{" : "["))
            let count = pick(7)
            for k in 0..<count where out.count < 560 {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                newline(depth)
                if object {
                    if pick(6) == 0 { out += Array(#""reason""#.utf8) } else { string() }
                    out += Array((pretty ? " : " : ":").utf8)
                }
                value(depth)
            }
            if count > 0 { newline(depth - 1) }
            out.append(UInt8(ascii: object ? "}" : "]"))
        }
        container(1, object: pick(4) != 0)
        out += Array(#" {"after": "\"}"}"#.utf8)
        if pick(3) == 0 {
            let strays: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5D, 0x0A, 0x01, 0x7C]
            for _ in 0...pick(3) where out.count > 1 {
                out[1 + pick(out.count - 1)] = strays[pick(strays.count)]
            }
        }
        if pick(5) == 0 { out.removeLast(pick(out.count)) }
        return out
    }

    @Test func matchesTheWordVisitOnGeneratedNestedJSON() async {
        let gen = zip(
            Gen.uint64(),
            Gen.int(in: 0...(Self.probes.count - 1)),
            Gen.int(in: 0...(Self.nestingLimits.count - 1))
        )
        await propertyCheck(count: 1_500, input: gen) { input in
            let (seed, probeIndex, limitIndex) = input
            let bytes = Self.realisticJSON(seed: seed)
            guard !bytes.isEmpty else { return }
            let limit = Self.nestingLimits[limitIndex]
            Self.expectSameAsWordVisit(bytes, maxNesting: limit, probe: Self.probes[probeIndex])
            Self.expectSameAsWordVisit(bytes, maxNesting: limit, probe: Probe(#""reason""#))
        }
    }

    /// The offsets where a word or a 64-byte block ends, relative to the opening bracket at 0.
    private static let edges = [7, 8, 15, 16, 63, 64, 127, 128]

    @Test func backslashRunsAcrossWordAndBlockEdges() {
        for edge in Self.edges {
            for run in 1...9 {
                for shift in 0...run {
                    let runStart = edge - run + shift
                    for inString in [true, false] {
                        for after in [#"""#, "a", "}", "\n", #"\"#] {
                            var bytes = Array(#"{"#.utf8)
                            if inString { bytes += Array(#"""#.utf8) }
                            while bytes.count < runStart { bytes.append(UInt8(ascii: "b")) }
                            bytes += Array(repeating: UInt8(ascii: "\\"), count: run)
                            bytes += Array(after.utf8)
                            bytes += Array(#"x"}"] "reason" }"#.utf8)
                            for probe in [nil, Probe(#""x"#), Probe(#"""#)] {
                                for limit in [0, 1, 10_000] {
                                    Self.expectSameAsWordVisit(bytes, maxNesting: limit, probe: probe)
                                }
                            }
                            let end = Self.expectSameAsWordVisit(bytes)
                            #expect(end == referenceMatch(bytes, from: 0))
                        }
                    }
                }
            }
        }
    }

    @Test func quoteAsTheLastByte() {
        for count in 1...140 {
            for filler in [UInt8(ascii: "a"), UInt8(ascii: "\\"), UInt8(ascii: "\"")] {
                let bytes = [UInt8(ascii: "{")] + Array(repeating: filler, count: count - 1) + [UInt8(ascii: "\"")]
                Self.expectSameAsWordVisit(bytes, probe: Probe(#"""#))
                #expect(Self.expectSameAsWordVisit(bytes) == nil)
            }
        }
    }

    @Test func containersClosingAtWordAndBlockEdges() {
        for close in 1...140 {
            for inner in [#""k": "v""#, #"[1]"#, #""\"""#, ""] where inner.utf8.count < close {
                var bytes = Array("{".utf8) + Array(inner.utf8)
                while bytes.count < close { bytes.append(UInt8(ascii: " ")) }
                bytes += Array("}".utf8)
                let exact = bytes
                bytes += Array(#"}"tail"#.utf8)
                #expect(Self.expectSameAsWordVisit(exact) == close + 1)
                #expect(Self.expectSameAsWordVisit(bytes) == close + 1)
                Self.expectSameAsWordVisit(bytes, maxNesting: 1, probe: Probe(#""k""#))
            }
        }
    }

    @Test func controlBytesInStringsAtWordAndBlockEdges() {
        for edge in Self.edges {
            for offset in (edge - 2)...(edge + 2) {
                for control: UInt8 in [0x00, 0x0A, 0x1F] {
                    for escaped in [false, true] {
                        var bytes = Array(#"{"#.utf8) + Array(#""reason"#.utf8)
                        while bytes.count < offset - (escaped ? 1 : 0) { bytes.append(UInt8(ascii: "a")) }
                        if escaped { bytes.append(UInt8(ascii: "\\")) }
                        bytes.append(control)
                        bytes += Array(#"" : 1, "reason" : 2}"#.utf8)
                        let end = Self.expectSameAsWordVisit(bytes, probe: Probe(#""reason""#))
                        #expect((end == nil) == !escaped)
                        // Outside a string the same byte is only whitespace.
                        var outside = Array(#"{"reason" : 1,"#.utf8)
                        while outside.count < offset { outside.append(UInt8(ascii: " ")) }
                        outside.append(control)
                        outside += Array(#"}"#.utf8)
                        #expect(Self.expectSameAsWordVisit(outside) == outside.count)
                    }
                }
            }
        }
    }

    @Test func nestingLimitsAtWordAndBlockEdges() {
        for depth in 1...12 {
            for padding in 0...70 {
                let bytes =
                    Array(repeating: UInt8(ascii: " "), count: padding)
                    + Array(repeating: UInt8(ascii: "["), count: depth)
                    + Array(repeating: UInt8(ascii: "]"), count: depth) + Array(#"}"#.utf8)
                for limit in [-1, 0, 1, depth - 1, depth, depth + 1] {
                    Self.expectSameAsWordVisit([UInt8(ascii: "{")] + bytes, maxNesting: limit, probe: Probe(#"""#))
                }
            }
        }
    }

    @Test func escapedQuotesAndBracketsInStrings() {
        let text = #"{"a" : "x\"}]{[", "b" : [1, {"c" : "\\"}], "long key without structure at all" : 12345678}tail"#
        let bytes = Array(text.utf8)
        let end = bytes.withBorrowedBytes { JSONScanning.matchingBracket($0, from: 0) }
        #expect(end == bytes.count - 4)
    }

    @Test func opaqueContainersExpandToTheSameValues() throws {
        let text = """
            {
              "top" : 1,
              "list" : [
                {"name" : "a", "deep" : {"x" : [1, 2]}},
                {"name" : "b\\"}", "reason" : "per-process-limit"}
              ]
            }
            """
        var options = JSONParseOptions()
        options.opaqueDepth = 3
        let lazy = try JSONDocument(text: text, options: options)
        let full = try JSONDocument(text: text)
        let entries = Array(try #require(lazy.root["list"]).elements)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.isOpaque })
        #expect(entries[0].member("name") == nil)
        let expanded = try entries.map { try $0.expanded().materialized }
        let reference = try #require(full.root["list"]).elements.map(\.materialized)
        #expect(expanded == reference)
        #expect(lazy.nodeCount < full.nodeCount)
    }

    @Test func keyProbeMarksOnlyObjectsThatHaveTheKeyAtTheirTop() throws {
        let text = """
            [[{"name" : "a", "deep" : {"reason" : 1}}, {"reason" : "x", "n" : 1}, {"why" : "reason"}, {"reasonable" : 2}]]
            """
        var options = JSONParseOptions()
        options.opaqueDepth = 3
        options.opaqueKeyProbe = "\"reason\""
        let document = try JSONDocument(text: text, options: options)
        let inner = try #require(document.root.elements.first { _ in true })
        let hits = inner.elements.map(\.mayContainProbedKey)
        // The nested key does not count; a string value equal to the key does (callers re-check after expanding).
        #expect(hits == [false, true, true, false])
    }

    @Test func opaqueModeNeverAppliesToRepairedInput() throws {
        var options = JSONParseOptions()
        options.opaqueDepth = 2
        let document = try JSONDocument(text: #"{"a" : [{"b" : 1},], }"#, options: options)
        #expect(!document.diagnostics.isEmpty)
        #expect(document.root["a"]?.isOpaque == false)
        #expect(document.root["a"]?.elements.first { _ in true }?["b"]?.uint64 == 1)
    }
}
