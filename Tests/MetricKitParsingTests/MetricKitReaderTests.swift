import APMInspectCore
import MetricKitParsing
import Testing

@Suite struct MetricKitReaderTests {
    static func read(_ text: String, reader: MetricKitReader = MetricKitReader()) throws -> MetricKitReadResult {
        try reader.read(Array(text.utf8))
    }

    @Test(arguments: [
        ("20 secs.", 20.0, "secs.", 20.0), ("20 sec", 20, "sec", 20), ("2,000 byte", 2000, "byte", 2000),
        ("20000 ms", 20000, "ms", 20), ("412,880 kB", 412_880, "kB", 412_880_000),
    ])
    func measurements(text: String, value: Double, unit: String, normalized: Double) {
        let measurement = MetricKitMeasurement(raw: text)
        #expect(measurement.value == value)
        #expect(measurement.unit == unit)
        #expect(measurement.normalized == normalized)
        #expect(measurement.raw == text)
    }

    @Test func localisedUnitsAreKeptAsWritten() {
        let measurement = MetricKitMeasurement(raw: "2,717秒")
        #expect(measurement.value == 2717)
        #expect(measurement.unit == "秒")
        #expect(measurement.normalized == nil)
        let words = MetricKitMeasurement(raw: "about a minute")
        #expect(words.value == nil && words.unit == "about a minute")
    }

    @Test func recognisesByContentOnly() {
        #expect(MetricKitReader.recognise(Array(#"{"crashDiagnostics":[]}"#.utf8)))
        #expect(MetricKitReader.recognise(Array(#"{"callStacks":[],"callStackPerThread":true}"#.utf8)))
        #expect(
            MetricKitReader.recognise(Array(#"[{"timeStampBegin":"2024-01-01 00:00:00 +0000","cpuMetrics":{}}]"#.utf8))
        )
        #expect(!MetricKitReader.recognise(Array(#"{"log":{"entries":[]}}"#.utf8)))
        #expect(!MetricKitReader.recognise(Array(#"{"timeStampBegin":"x"}"#.utf8)))
        #expect(!MetricKitReader.recognise(Array("Incident Identifier: crashDiagnostics".utf8)))
        // Key names as values (this tool's own output about a MetricKit file) are not the keys.
        #expect(!MetricKitReader.recognise(Array(#"{"timeStampBegin":"x","category":"cpuMetrics"}"#.utf8)))
        #expect(!MetricKitReader.recognise(Array(#"{"note":"crashDiagnostics" , "a":1}"#.utf8)))
    }

    /// iOS 14.0 wrote each binary's load address in `offsetIntoBinaryTextSegment`.
    @Test func loadAddressInTheOffsetField() throws {
        let text = """
            {"crashDiagnostics":[{"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,
            "callStackRootFrames":[{"binaryName":"App","binaryUUID":"U1","address":4295000064,
            "offsetIntoBinaryTextSegment":4294967296,"sampleCount":1,"subFrames":[{"binaryName":"App","binaryUUID":"U1",
            "address":4295000164,"offsetIntoBinaryTextSegment":4294967296,"sampleCount":1,"subFrames":[
            {"binaryName":"libdyld.dylib","binaryUUID":"U2","address":6795285912,"offsetIntoBinaryTextSegment":5528,
            "sampleCount":1}]}]}]}]},"diagnosticMetaData":{"exceptionType":1,"signal":11,"exceptionCode":1}}]}
            """
        let result = try Self.read(text)
        let crash = try #require(result.report.diagnostics.first?.crashReport)
        #expect(crash.threads[0].frames.map(\.imageOffset) == [0x8000, 0x8064, 5528])
        #expect(crash.binaryImages.map(\.base) == [HexValue(4_294_967_296), HexValue(6_795_285_912 - 5528)])
        #expect(crash.process == "App")
        #expect(crash.exception?.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(result.diagnostics.contains { $0.code == .metricKitLoadAddressAsOffset })
    }

    @Test func wrongTypesAreFindingsWithKeyPaths() throws {
        let text = """
            {"hangDiagnostics":[{"callStackTree":{"callStacks":[{"callStackRootFrames":[
            {"binaryName":7,"address":-5,"sampleCount":"many","subFrames":5},"not a frame"]},
            {"callStackRootFrames":{"a":1}}]},"diagnosticMetaData":{"hangDuration":[1],"pid":"x"}},
            "not a diagnostic"],"crashDiagnostics":{"a":1}}
            """
        let result = try Self.read(text)
        let paths = result.diagnostics.compactMap(\.location?.keyPath)
        #expect(paths.contains("hangDiagnostics[0].callStackTree.callStacks[0].callStackRootFrames[0]"))
        #expect(paths.contains("hangDiagnostics[0].callStackTree.callStacks[0].callStackRootFrames[1]"))
        #expect(paths.contains("hangDiagnostics[0].hangDuration"))
        #expect(paths.contains("hangDiagnostics[1]"))
        #expect(paths.contains("crashDiagnostics"))
        let hang = try #require(result.report.diagnostics.first)
        let frame = try #require(hang.callTree?.frames.first)
        #expect(frame.binaryName == nil && frame.address == nil && frame.sampleCount == nil)
        #expect(hang.metadata.pid == nil)
        #expect(
            result.report.payloads[0].unknownKeys?["crashDiagnostics"]
                == .object([.init(key: "a", value: .number("1"))])
        )
    }

    @Test func hugeSampleCountsSaturate() throws {
        let text = """
            {"cpuExceptionDiagnostics":[{"callStackTree":{"callStackPerThread":false,"callStacks":[{
            "callStackRootFrames":[{"sampleCount":18446744073709551615,"subFrames":[{"sampleCount":18446744073709551615},
            {"sampleCount":9223372036854775807}]},{"sampleCount":9223372036854775807}]}]}}]}
            """
        let tree = try #require(try Self.read(text).report.diagnostics.first?.callTree)
        #expect(tree.totalSamples == Int.max)
        #expect(tree.frames[0].endSamples == 0)
    }

    /// Numbers past `UInt64` (one more than its maximum, a float exponent) are findings at their key path; the frame
    /// stays, its other fields read, and the numbers are kept as written.
    @Test func frameNumbersBeyondSixtyFourBitsAreFindingsAndKeptAsWritten() throws {
        let tooLarge = "18446744073709551616"
        let text = """
            {"crashDiagnostics":[{"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,
            "callStackRootFrames":[{"binaryName":"App","binaryUUID":"U1","address":4295000064,
            "offsetIntoBinaryTextSegment":\(tooLarge),"sampleCount":1,"subFrames":[{"binaryName":"App",
            "binaryUUID":"U1","address":1e30,"offsetIntoBinaryTextSegment":32868,"sampleCount":1}]}]}]}}]}
            """
        let result = try Self.read(text)
        let tree = try #require(result.report.diagnostics.first?.callTree)
        #expect(tree.frames.count == 2)
        #expect(tree.frames[0].address == HexValue(4_295_000_064))
        #expect(tree.frames[0].offsetIntoBinaryTextSegment == nil)
        #expect(tree.frames[0].unknownKeys?["offsetIntoBinaryTextSegment"] == .number(tooLarge))
        #expect(tree.frames[1].binaryName == "App" && tree.frames[1].address == nil)
        #expect(tree.frames[1].offsetIntoBinaryTextSegment == 32868)
        #expect(tree.frames[1].unknownKeys?["address"] == .number("1e30"))
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        let path = "crashDiagnostics[0].callStackTree.callStacks[0].callStackRootFrames[0]"
        #expect(
            warnings.compactMap(\.location?.keyPath) == [
                path + ".offsetIntoBinaryTextSegment", path + ".subFrames[0].address",
            ]
        )
        #expect(warnings.allSatisfy { $0.location?.line != nil })
    }

    @Test func framesAreBoundedPerFile() throws {
        var frames = "{\"sampleCount\":1}"
        for _ in 0..<200 { frames = "{\"sampleCount\":1,\"subFrames\":[\(frames)]}" }
        let text =
            "{\"hangDiagnostics\":[{\"callStackTree\":{\"callStacks\":[{\"callStackRootFrames\":[\(frames)]}]}}]}"
        let full = try Self.read(text)
        #expect(full.report.diagnostics.first?.callTree?.frames.count == 201)
        #expect(full.report.diagnostics.first?.callTree?.heaviestPath.count == 201)
        let bounded = try Self.read(text, reader: MetricKitReader(maxFrames: 50))
        #expect(bounded.report.diagnostics.first?.callTree?.frames.count == 50)
        #expect(bounded.diagnostics.contains { $0.severity == .warning && $0.code == .metricKitFramesTruncated })
    }

    /// Nesting past the limit is refused with an error at its location, never a crash of the reader.
    @Test func nestingPastTheLimitIsAnError() {
        let depth = 5000
        let text =
            "{\"callStacks\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let error = #expect(throws: InputError.self) { try Self.read(text) }
        #expect(error?.code == .tooDeep)
        #expect(error?.location?.byteOffset != nil)
    }

    @Test func truncatedFileIsReadUpToTheCut() throws {
        let text =
            #"{"hangDiagnostics":[{"diagnosticMetaData":{"hangDuration":"2 sec","appVersion":"1.0"},"callStackTree":{"callStacks":[{"callStackRootFrames":[{"sampleCount":3"#
        let result = try Self.read(text)
        #expect(result.report.diagnostics.first?.hangDuration?.normalized == 2)
        #expect(result.diagnostics.contains { $0.code == .metricKitTruncatedJSON })
    }

    @Test func scalarsAreNotPayloads() {
        #expect(throws: InputError.self) { try Self.read("42") }
        #expect(throws: InputError.self) { try Self.read("") }
    }

    @Test func unknownFrameAndTreeKeysAreKept() throws {
        let text = """
            {"unkownField":"kept","callStackPerThread":true,"callStacks":[{"threadAttributed":true,"futureKey":[1],
            "callStackRootFrames":[{"binaryName":"A","sampleCount":1,"inlineDepth":2}]}]}
            """
        let result = try Self.read(text)
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.kind == .callStackTree)
        let tree = try #require(diagnostic.callTree)
        #expect(tree.unknownKeys?["unkownField"] == .string("kept"))
        #expect(tree.stacks[0].unknownKeys?["futureKey"] == .array([.number("1")]))
        #expect(tree.frames[0].unknownKeys?["inlineDepth"] == .number("2"))
    }
}

@Suite struct MetricKitFoldedStackTests {
    @Test func foldedStacksGoFromTheOutermostCallerToTheExecutingFrame() throws {
        let text = """
            {"callStackPerThread":false,"callStacks":[{"callStackRootFrames":[
            {"binaryName":"Kit","address":4128,"offsetIntoBinaryTextSegment":32,"sampleCount":10,"subFrames":[
              {"binaryName":"App","address":8208,"offsetIntoBinaryTextSegment":16,"sampleCount":7},
              {"binaryName":"App","address":8240,"offsetIntoBinaryTextSegment":48,"sampleCount":2}]},
            {"binaryName":"lib c;x\\ny","address":12292,"offsetIntoBinaryTextSegment":4,"sampleCount":4}]}]}
            """
        let tree = try #require(try MetricKitReader().read(Array(text.utf8)).report.diagnostics.first?.callTree)
        let folded = tree.foldedStacks()
        #expect(folded.isComplete)
        #expect(
            folded.lines == [
                "Kit+0x20 1", "App+0x10;Kit+0x20 7", "App+0x30;Kit+0x20 2", "lib_c_x_y+0x4 4",
            ]
        )
        // Every sample is in exactly one line.
        let total = folded.lines.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
        #expect(total == tree.totalSamples)
    }

    @Test func foldedStacksAreBounded() throws {
        // A chain in which every frame ends a stack: the lines cost the depth squared, so a budget stops them.
        var frames = "{\"binaryName\":\"A\",\"sampleCount\":1}"
        for depth in 1...300 {
            frames = "{\"binaryName\":\"A\",\"sampleCount\":\(depth + 1),\"subFrames\":[\(frames)]}"
        }
        let text = "{\"callStacks\":[{\"callStackRootFrames\":[\(frames)]}]}"
        let tree = try #require(try MetricKitReader().read(Array(text.utf8)).report.diagnostics.first?.callTree)
        #expect(tree.foldedStacks().lines.count == 301)
        let bounded = tree.foldedStacks(frameBudget: 1000)
        #expect(!bounded.isComplete)
        #expect(bounded.lines.count < 301)
    }
}

@Suite struct MetricKitBoundsTests {
    @Test func metricFigureNamesAreBounded() throws {
        let longKey = String(repeating: "k", count: 10_000)
        var nested = "{\"leaf\":\"1 sec\"}"
        for _ in 0..<200 { nested = "{\"level\":\(nested)}" }
        let text = """
            {"timeStampBegin":"2024-01-01 00:00:00 +0000","cpuMetrics":{"\(longKey)":{"a":"1 sec","b":"2 sec"}},
            "memoryMetrics":\(nested)}
            """
        let result = try MetricKitReader().read(Array(text.utf8))
        let entries = try #require(result.report.payloads.first?.metrics?.entries)
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0.name.utf8.count <= 256 + 3 })
        #expect(entries[0].name.hasSuffix("kkk.a") && entries[0].name.contains("…"))
        #expect(entries[2].name.hasSuffix("level.leaf") && entries[2].measurement?.normalized == 1)
    }

    @Test func metricContainersCountAgainstTheBudget() throws {
        let wide = (0..<1000).map { "\"k\($0)\":{}" }.joined(separator: ",")
        let text = "{\"timeStampBegin\":\"x\",\"cpuMetrics\":{\(wide)}}"
        let result = try MetricKitReader(maxMetricEntries: 100).read(Array(text.utf8))
        #expect(result.diagnostics.contains { $0.code == .metricKitMetricsTruncated })
    }

    @Test func findingsInDeepFramesNameTheirPath() throws {
        let text = """
            {"callStacks":[{},{"callStackRootFrames":[{"sampleCount":1},{"sampleCount":1,"subFrames":[
            {"sampleCount":1,"subFrames":[7]}]}]}]}
            """
        let result = try MetricKitReader().read(Array(text.utf8))
        let paths = result.diagnostics.compactMap(\.location?.keyPath)
        #expect(paths == ["callStacks[1].callStackRootFrames[1].subFrames[0].subFrames[0]"])
    }
}
