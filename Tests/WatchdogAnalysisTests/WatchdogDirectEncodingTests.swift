import APMInspectCore
import FuzzReplaySupport
import PropertyBased
import Testing

@testable import WatchdogAnalysis

/// `WatchdogTermination` writes its JSON itself: every member present or absent, every part, must come out as its
/// synthesised `encode(to:)` writes through the reference tree writer.
@Suite struct WatchdogDirectEncodingTests {
    private static let texts = ["", "scene-create", "a \"b\"\n", "é😀", "\\"]
    private static let numbers = [0, -0.0, 0.5, 1.25, 1e300, -7, 10.001, Double.nan, .infinity]

    private func text(_ random: inout SeededGenerator) -> String? {
        random.chance() ? Self.texts[random.below(Self.texts.count)] : nil
    }

    private func number(_ random: inout SeededGenerator) -> Double? {
        random.chance() ? Self.numbers[random.below(Self.numbers.count)] : nil
    }

    private func texts(_ random: inout SeededGenerator) -> [String] {
        (0..<random.below(3)).map { _ in Self.texts[random.below(Self.texts.count)] }
    }

    @Test func randomTerminationsWriteAsTheirCodableForm() async {
        let kinds: [WatchdogTermination.Kind] = [.watchdogTimeout, .thermal, .forceQuit, .other]
        let verdicts: [WatchdogTermination.Diagnosis.Verdict] = [.waitingOnLock, .busyInAppCode, .unknown]
        let confidences: [WatchdogTermination.Diagnosis.Confidence] = [.high, .medium, .low]
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            var termination = WatchdogTermination(kind: kinds[random.below(kinds.count)])
            termination.code = random.chance() ? HexValue(random.next()) : nil
            termination.codeName = text(&random)
            termination.meaning = text(&random)
            termination.namespace = text(&random)
            termination.domain = random.chance() ? random.below(40) - 20 : nil
            termination.domainName = text(&random)
            termination.event = text(&random)
            termination.processVisibility = text(&random)
            termination.processState = text(&random)
            termination.watchdogVisibility = text(&random)
            termination.allowanceSeconds = number(&random)
            termination.allowanceKind = text(&random)
            termination.elapsedSeconds = number(&random)
            if random.chance() {
                termination.cpu = WatchdogTermination.CPUStatistics(
                    totalSeconds: number(&random),
                    userSeconds: number(&random),
                    systemSeconds: number(&random),
                    totalPercent: number(&random),
                    appSeconds: number(&random),
                    appPercent: number(&random)
                )
            }
            if random.chance() {
                termination.thermal = WatchdogTermination.Thermal(
                    level: random.chance() ? random.below(5) : nil,
                    state: text(&random)
                )
            }
            termination.bundleId = text(&random)
            termination.pid = random.chance() ? Int64(bitPattern: random.next()) : nil
            termination.bundleInstanceUUID = text(&random)
            termination.reportType = text(&random)
            termination.maxTerminationResistance = text(&random)
            termination.flags = random.chance() ? texts(&random) : nil
            if random.chance() {
                termination.diagnosis = WatchdogTermination.Diagnosis(
                    verdict: verdicts[random.below(verdicts.count)],
                    summary: Self.texts[random.below(Self.texts.count)],
                    confidence: confidences[random.below(confidences.count)],
                    reasons: texts(&random),
                    evidenceFrames: texts(&random),
                    thread: random.chance() ? random.below(30) : nil
                )
            }
            termination.raw = text(&random)
            let list = [termination, WatchdogTermination(kind: .other)]
            #expect(
                directEncodingMismatches(NestedHolder(single: termination, list: list, nested: [list, []])) == [],
                "seed \(seed)"
            )
        }
    }
}
