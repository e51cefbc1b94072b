import APMInspectCore
import CrashReportParsing
import Foundation
import Testing
import WatchdogAnalysis

/// The watchdog analysis' main-thread reading, given a thread without a watchdog report: a MetricKit hang's.
@Suite struct MainThreadClassifierTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The attributed stack's heaviest path of the first hang in a corpus payload, read with Foundation alone
    /// (this suite does not use the MetricKit reader), as the tool gives it to the classifier.
    static func hangMainThread(_ name: String, payload: Int) throws -> CrashReport.Thread {
        let url = root.appendingPathComponent("Corpus/metrickit/\(name)")
        let payloads = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        let hang = try #require((payloads[payload]["hangDiagnostics"] as? [[String: Any]])?.first)
        let stacks = try #require((hang["callStackTree"] as? [String: Any])?["callStacks"] as? [[String: Any]])
        let stack = try #require(stacks.first { $0["threadAttributed"] as? Bool == true })
        func heaviest(_ frames: Any?) -> [String: Any]? {
            (frames as? [[String: Any]])?.max { ($0["sampleCount"] as? Int ?? 0) < ($1["sampleCount"] as? Int ?? 0) }
        }
        var thread = CrashReport.Thread(index: 0)
        var cursor = heaviest(stack["callStackRootFrames"])
        while let node = cursor {
            var frame = CrashReport.Frame(index: thread.frames.count, image: node["binaryName"] as? String)
            frame.imageOffset = (node["offsetIntoBinaryTextSegment"] as? Int).map { UInt64($0) }
            frame.isAppFrame = frame.image == "Fernway"
            thread.frames.append(frame)
            cursor = heaviest(node["subFrames"])
        }
        return thread
    }

    @Test func hangInSQLiteIsFileOrDatabaseIO() throws {
        let thread = try Self.hangMainThread("ios16.4.1_two_payloads_hangs_per_thread_tree.json", payload: 0)
        #expect(thread.frames.count == 12)
        let diagnosis = MainThreadClassifier.classify(thread)
        #expect(diagnosis.verdict == .synchronousFileOrDatabaseIO)
        #expect(diagnosis.reasons.first == "frame 2 is SQLite + 307952")
        #expect(diagnosis.evidenceFrames.last == "Fernway + 189624")
        // Without CPU figures the verdict is not confirmed: medium at most.
        #expect(diagnosis.confidence == .medium)
    }

    @Test func hangInAppCodeIsBusy() throws {
        let thread = try Self.hangMainThread("ios16.4.1_two_payloads_hangs_per_thread_tree.json", payload: 1)
        #expect(MainThreadClassifier.classify(thread).verdict == .busyInAppCode)
    }

    @Test func symbolsStillWinAndImagesNeedNoSymbol() {
        var wait = CrashReport.Frame(index: 0, image: "libsystem_kernel.dylib")
        wait.symbol = "semaphore_wait_trap"
        var sqlite = CrashReport.Frame(index: 1, image: "SQLite")
        sqlite.imageOffset = 10
        var thread = CrashReport.Thread(index: 0)
        thread.frames = [wait, sqlite]
        // The more specific cause wins, as in a watchdog report: a wait inside SQLite is database I/O.
        #expect(MainThreadClassifier.classify(thread).verdict == .synchronousFileOrDatabaseIO)
        var network = CrashReport.Frame(index: 0, image: "CFNetwork")
        network.imageOffset = 4
        thread.frames = [network]
        #expect(MainThreadClassifier.classify(thread).verdict == .synchronousNetworking)
        // A symbolicated frame is read by its symbol, as in a watchdog report.
        var symbolicated = CrashReport.Frame(index: 0, image: "SQLite")
        symbolicated.symbol = "sqlite3_initialize_helper"
        thread.frames = [symbolicated]
        #expect(MainThreadClassifier.classify(thread).verdict == .synchronousFileOrDatabaseIO)
        thread.frames = []
        #expect(MainThreadClassifier.classify(thread).verdict == .unknown)
    }

    /// The watchdog analysis itself does not read images: its corpus verdicts do not move.
    @Test func watchdogReportsAreNotReadByImage() throws {
        let text = """
            Process: A [9]
            Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d
            Termination Description: SPRINGBOARD, scene-create watchdog transgression: application<com.x.y>:9 \
            exhausted real (wall clock) time allowance of 10.00 seconds

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0:
            0   SQLite                        \t0x00000001a8e5b2f0 0x1a8e10000 + 307952

            """
        let report = try CrashReportParser().parse(Array(text.utf8)).report
        let diagnosis = try #require(WatchdogDetector.analyze(report)?.diagnosis)
        #expect(diagnosis.verdict != .synchronousFileOrDatabaseIO)
    }
}
