import APMInspectCore
import CrashReportParsing
import Foundation
import FuzzReplaySupport
import Testing

/// Replays, without sanitizers, every input the crash-report fuzz targets crashed on (`Fuzz/FailCases/<target>/`)
/// and their seeds, through the same calls and properties as the targets in `Fuzz/Sources/`.
@Suite struct FuzzFailCaseTests {
    @Test func text() throws {
        try replay(FuzzReplayInputs.load("FuzzCrashText", corpus: ["crash": ".crash", "crash": ".txt"]))
    }

    @Test func json() throws {
        try replay(FuzzReplayInputs.load("FuzzCrashJSON", corpus: ["crash": ".ips", "watchdog": ".ips"]))
    }

    /// Parse twice, encode, render in both layouts, translate: what the targets do.
    private func replay(_ inputs: [(String, [UInt8])]) {
        for (name, bytes) in inputs {
            let parser = CrashReportParser()
            guard let first = try? parser.parse(bytes) else { continue }
            #expect(first == (try? parser.parse(bytes)), "\(name)")
            FuzzReplayInputs.expectEncodes(first.report, name)
            for layout in AppleTextLayout.allCases {
                #expect(!CrashTextTranslator(layout: layout).translate(first.report).isEmpty, "\(name)")
            }
            if let translated = try? CrashTextTranslator().translation(of: bytes) {
                #expect(!translated.text.isEmpty, "\(name)")
            }
        }
    }
}
