import APMInspectCore
import PropertyBased
import Testing

@testable import MetricKitParsing

/// The byte readings of plain ASCII figures (issue 21) must say what the Character readings say, and leave every
/// other text to them.
@Suite struct PlainTextFastPathTests {
    /// Pieces of exit figure names, near misses, and text that is not plain (a CR, a combining mark, non-ASCII).
    private static let namePieces = [
        "foregroundExitData", "backgroundExitData", "ExitData", ".", "..", "cumulative", "App", "Exit", "Count",
        "ExitCount", "Normal", "Watchdog", "x", "A", "a", "Z", "é", "\u{301}", "\r\n", "\r", "\n", " ",
    ]
    private static let names = Gen.int(in: 0...(namePieces.count - 1)).map { namePieces[$0] }.array(of: 0...8)
        .map { $0.joined() }

    /// Pieces of measurements: digits, separators, signs, units, white space and text that is not plain.
    private static let measurementPieces = [
        "0", "1", "7", "9", "12", ",", ".", "-", "+", "e", "E", " ", "\t", "\n", "\r\n", "\r", "ms", "sec", "secs.",
        "kB", "µs", "é", "\u{301}", "x", "inf", "nan", String(repeating: "9", count: 70), "1,000", "2,5",
    ]
    private static let measurements = Gen.int(in: 0...(measurementPieces.count - 1)).map { measurementPieces[$0] }
        .array(of: 0...8).map { $0.joined() }

    @Test func exitKeysAgreeWithTheCharacterReading() async {
        await propertyCheck(input: Self.names) { name in
            Self.expectExitKeyAgrees(name)
        }
    }

    @Test(arguments: [
        "foregroundExitData.cumulativeNormalAppExitCount", "backgroundExitData.cumulativeMemoryResourceLimitExitCount",
        "backgroundExitData.cumulativeAppWatchdogExitCount", "foregroundExitData.cumulativeBadAccessExitCount",
        "foregroundExitData.cumulativeCPUResourceLimitExitCount", "foregroundExitData.App", "foregroundExitData.Count",
        "foregroundExitData.cumulative", "foregroundExitData..x", ".foregroundExitData.x.", "foregroundExitData.x.y",
        "foregroundExitData.Éclair", "foregroundExitData.x\r\n", "foregroundExitData", "", ".",
    ])
    func exitKeyEdgeCasesAgree(_ name: String) {
        Self.expectExitKeyAgrees(name)
    }

    @Test func exitKeysOfPlainNamesAreReadFromTheBytes() {
        #expect(
            MetricKitReader.plainExitKey("foregroundExitData.cumulativeNormalAppExitCount")
                == .some("foreground.normal")
        )
        #expect(MetricKitReader.plainExitKey("backgroundExitData.x") == .some("background.x"))
        #expect(MetricKitReader.plainExitKey("cpuMetrics.x") == .some(nil))
        #expect(MetricKitReader.plainExitKey("foregroundExitData.é") == nil)
        #expect(MetricKitReader.plainExitKey("foregroundExitData.x\r") == nil)
    }

    @Test func measurementsAgreeWithTheCharacterReading() async {
        await propertyCheck(input: Self.measurements) { text in
            Self.expectMeasurementAgrees(text)
        }
    }

    @Test(arguments: [
        "20 sec", "2,000 byte", "20000 ms", "  1,000.5 kB ", "-3 s", "--3 s", ",5 ms", "5, ms", "5,,0 ms", ".5 ms",
        "5. ms", "-.5", "-", ".", "", " ", "1e3 ms", "12\r\n", "µs", "3 µs", "é3", "1.2.3 ms",
        String(repeating: "9", count: 65) + " ms", String(repeating: "9,", count: 40) + "9 ms",
    ])
    func measurementEdgeCasesAgree(_ text: String) {
        Self.expectMeasurementAgrees(text)
    }

    private static func expectExitKeyAgrees(_ name: String) {
        let plain = MetricKitReader.plainExitKey(name)
        if name.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            #expect(plain != nil, "a plain name must not take the Character reading: \(name.debugDescription)")
        } else {
            #expect(plain == nil, "only plain names are read from the bytes: \(name.debugDescription)")
        }
        if let plain { #expect(plain == MetricKitReader.exitKey(name), "\(name.debugDescription)") }
    }

    private static func expectMeasurementAgrees(_ text: String) {
        let plain = MetricKitMeasurement.plainNumberAndUnit(text)
        let reference = MetricKitMeasurement.numberAndUnit(text)
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
            #expect(plain != nil, "a plain text must not take the Character reading: \(text.debugDescription)")
        } else {
            #expect(plain == nil, "only plain text is read from the bytes: \(text.debugDescription)")
        }
        if let plain {
            #expect(plain.0 == reference.0 && plain.1 == reference.1, "\(text.debugDescription)")
        }
    }
}
