import APMInspectCore
import Foundation
import MetricKitParsing
import Testing

@Suite struct MetricKitCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var files: [String] {
        let folder = root.appendingPathComponent("Corpus/metrickit").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func read(_ name: String) throws -> MetricKitReadResult {
        let path = root.appendingPathComponent("Corpus/metrickit/\(name)").path
        return try MetricKitReader().read(try FileReading.contents(atPath: path))
    }

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 5)
    }

    @Test func crashWithObjectiveCExceptionMapsIntoTheCrashModel() throws {
        let result = try Self.read("ios17.5_crash_objc_exception_nsrangeexception.json")
        #expect(result.report.diagnosticCounts == ["crash": 1])
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.metadata.pid == 3817)
        #expect(diagnostic.metadata.lowPowerModeEnabled == false)
        #expect(diagnostic.objectiveCException?.name == "NSRangeException")
        #expect(diagnostic.objectiveCException?.arguments == ["7", "4"])
        // An unknown metadata key is kept verbatim.
        #expect(diagnostic.metadata.unknownKeys?["appStoreReceiptKind"] == .string("production"))
        let crash = try #require(diagnostic.crashReport)
        #expect(crash.exception?.type == "EXC_CRASH")
        #expect(crash.exception?.signal == "SIGABRT")
        #expect(crash.exception?.codeValues == [HexValue(0)])
        #expect(crash.termination?.namespace == "SIGNAL")
        #expect(crash.termination?.code == HexValue(6))
        #expect(crash.process == "Fernway")
        #expect(crash.deviceName == "iPhone 14 Pro")
        #expect(crash.osBuild == "21F79")
        #expect(crash.codeType == "ARM-64")
        #expect(crash.threads.count == 3)
        #expect(crash.crashedThread == 0)
        #expect(crash.threads[0].crashed && !crash.threads[1].crashed)
        #expect(crash.threads[0].frames.count == 19)
        #expect(crash.applicationSpecificInformation?.first?.contains("'NSRangeException'") == true)
        // Frame 10 is the app's: its image is at address - offset.
        let frame = crash.threads[0].frames[10]
        #expect(frame.image == "Fernway" && frame.isAppFrame == true)
        #expect(frame.imageOffset == 0x1_C2A8)
        let image = try #require(crash.binaryImages.first { $0.name == "Fernway" })
        #expect(image.base == HexValue(0x1_002C_8000))
        #expect(image.uuid == "4f0c2a917b3d3e5a9c112d8e6b40a7f3")
        #expect(crash.binaryImages.count == 12)
        #expect(crash.signature != nil)
        #expect(crash.signatureFrames?.first == "Fernway+0x1c2a8")
    }

    @Test func hangsInAnArrayOfPayloads() throws {
        let result = try Self.read("ios16.4.1_two_payloads_hangs_per_thread_tree.json")
        #expect(result.report.isArray)
        #expect(result.report.payloads.count == 2)
        #expect(result.report.diagnosticCounts == ["hang": 2])
        let hangs = result.report.diagnostics
        #expect(hangs[0].keyPath == "[0].hangDiagnostics[0]")
        #expect(hangs[0].hangDuration?.normalized == 3.2)
        #expect(hangs[1].hangDuration?.value == 1250 && hangs[1].hangDuration?.unit == "ms")
        #expect(hangs[1].hangDuration?.normalized == 1.25)
        let tree = try #require(hangs[0].callTree)
        #expect(tree.perThread == true)
        #expect(tree.stacks.map(\.threadAttributed) == [true, false])
        #expect(tree.heaviestPath.count == 12)
        #expect(tree.label(of: tree.heaviestPath[0]) == "libsystem_kernel.dylib+0x1a90")
        #expect(tree.frames[tree.heaviestPath[0]].selfSamples == 32)
        #expect(tree.frames[tree.heaviestPath[1]].selfSamples == 0)
        #expect(tree.totalSamples == 64)
        #expect(hangs[0].crashReport == nil)
    }

    @Test func cpuExceptionKeepsTheSampledTree() throws {
        let result = try Self.read("ios17.2_cpu_exception_aggregated_tree.json")
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.totalCPUTime?.normalized == 91.4)
        #expect(diagnostic.totalSampledTime?.normalized == 180)
        let tree = try #require(diagnostic.callTree)
        #expect(tree.perThread == false)
        #expect(tree.totalSamples == 175)
        #expect(tree.stacks[0].rootFrames.count == 3)
        // The heaviest root (120 samples), then its heaviest caller at each level (95 over 25).
        #expect(tree.heaviestPath.map { tree.frames[$0].totalSamples } == [120, 120, 95, 95])
        // The Foundation caller has 20 of its callee's 25 samples: 5 end at the callee.
        let callee = try #require(tree.frames.first { $0.imageOffset == 0x44A98 })
        #expect(callee.endSamples == 5)
    }

    @Test func diskWriteException() throws {
        let result = try Self.read("ios15.7_disk_write_exception.json")
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.kind == .diskWriteException)
        #expect(diagnostic.writesCaused?.normalized == 1_073_741_824)
        #expect(diagnostic.callTree?.totalSamples == 60)
    }

    @Test func metricPayloadFigures() throws {
        let result = try Self.read("ios17.4_metric_payload.json")
        #expect(result.report.metricPayloads == 1)
        let metrics = try #require(result.report.payloads.first?.metrics)
        #expect(metrics.appVersion == "3.2.0")
        #expect(metrics.metadata?.deviceType == "iPhone15,3")
        let cpu = try #require(metrics.entries.first { $0.name == "cumulativeCPUTime" })
        #expect(cpu.measurement?.normalized == 412)
        let peak = try #require(metrics.entries.first { $0.name == "peakMemoryUsage" })
        #expect(peak.measurement?.normalized == 412_880_000)
        let hangs = try #require(metrics.entries.first { $0.name == "histogrammedApplicationHangTime" }?.histogram)
        #expect(hangs.total == 10 && hangs.buckets.count == 3 && hangs.unit == "ms")
        // Rank 5 of 10 falls in the first bucket (6 samples over 0–250 ms): 250 × 5/6.
        #expect(abs((hangs.p50 ?? 0) - 250 * 5 / 6) < 1e-9)
        // Rank 9 is the last sample of the second bucket (250–1,000 ms): its end.
        #expect(hangs.p90 == 1000)
        #expect(metrics.exits["foreground.normal"] == 14)
        #expect(metrics.exits["foreground.watchdog"] == 1)
        #expect(metrics.exits["background.memoryPressure"] == 22)
        #expect(metrics.exits["background.suspendedWithLockedFile"] == 2)
        let averaged = try #require(metrics.entries.first { $0.name == "averageSuspendedMemory" }?.average)
        #expect(averaged.sampleCount == 88 && averaged.value?.normalized == 96_400_000)
    }
}
