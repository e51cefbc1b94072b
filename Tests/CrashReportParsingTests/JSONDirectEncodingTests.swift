import Foundation
import FuzzReplaySupport
import PropertyBased
import Testing

@testable import APMInspectCore
@testable import CrashReportParsing

/// The model types that write their JSON themselves (`JSONDirectEncodable`) must write exactly what their
/// `encode(to:)` writes through the reference tree writer, in both layouts and at any depth.
@Suite struct JSONDirectEncodingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every crash and KSCrash report of the corpus that reads.
    static var corpusReports: [(name: String, report: CrashReport)] {
        var reports: [(name: String, report: CrashReport)] = []
        for kind in ["crash", "kscrash"] {
            let path = root.appendingPathComponent("Corpus/\(kind)").path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names.sorted() where !name.hasSuffix(".md") {
                guard let bytes = try? FileReading.contents(atPath: "\(path)/\(name)") else { continue }
                let result =
                    kind == "kscrash" ? try? KSCrashReader().parse(bytes) : try? CrashReportParser().parse(bytes)
                if let report = result?.report { reports.append(("\(kind)/\(name)", report)) }
            }
        }
        return reports
    }

    @Test func corpusReportsWriteAsTheirCodableForm() {
        let reports = Self.corpusReports
        #expect(reports.count >= 15)
        for (name, report) in reports {
            #expect(directEncodingMismatches(report) == [], "\(name)")
            let frames = report.threads.flatMap(\.frames) + (report.lastExceptionBacktrace ?? [])
            #expect(
                directEncodingMismatches(NestedHolder(single: frames.first, list: frames, nested: [frames, []])) == [],
                "\(name) frames"
            )
            let images = report.binaryImages
            #expect(
                directEncodingMismatches(NestedHolder(single: images.first, list: images, nested: [images])) == [],
                "\(name) images"
            )
            let threads = report.threads
            #expect(
                directEncodingMismatches(NestedHolder(single: threads.first, list: threads, nested: [threads])) == [],
                "\(name) threads"
            )
            let registers = report.threads.flatMap { $0.registers ?? [] }
            #expect(
                directEncodingMismatches(NestedHolder(single: registers.first, list: registers, nested: [registers]))
                    == [],
                "\(name) registers"
            )
        }
    }

    // MARK: - Random values

    /// Text pieces that need escaping, are not ASCII, or are not even valid UTF-8 (for windows on raw bytes).
    private static let pieces: [[UInt8]] = [
        Array("a".utf8), Array("Frame_9".utf8), Array(" ".utf8), Array("/".utf8), Array("\"".utf8), Array("\\".utf8),
        Array("\\n".utf8), Array("\\u00e9".utf8), Array("\\/".utf8), [0x0A], [0x09], [0x01], [0x1F], [0x7F],
        Array("é".utf8), Array("😀".utf8), [0xC3], [0xFF], Array("abcdefghijklmnop".utf8),
    ]

    private func bytes(_ random: inout SeededGenerator) -> [UInt8] {
        (0..<random.below(24)).flatMap { _ in Self.pieces[random.below(Self.pieces.count)] }
    }

    private func string(_ random: inout SeededGenerator) -> String {
        String(decoding: bytes(&random), as: UTF8.self)
    }

    private func optional<Value>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> Value) -> Value? {
        random.chance() ? make(&random) : nil
    }

    private func number(_ random: inout SeededGenerator) -> UInt64 {
        switch random.below(4) {
        case 0: return 0
        case 1: return UInt64(random.below(100))
        case 2: return UInt64.max
        default: return random.next()
        }
    }

    private func signed(_ random: inout SeededGenerator) -> Int {
        Int(truncatingIfNeeded: random.chance() ? Int64(random.below(1000)) - 500 : Int64(bitPattern: random.next()))
    }

    /// A frame text: its own string, or a window (raw or JSON) on `source`.
    private func frameText(_ random: inout SeededGenerator, source: [UInt8]) -> CrashReport.FrameText? {
        let lower = random.below(source.count + 1)
        let upper = lower + random.below(source.count - lower + 1)
        switch random.below(4) {
        case 0: return nil
        case 1: return .text(string(&random))
        case 2: return .window(start: UInt32(truncatingIfNeeded: lower), end: UInt32(truncatingIfNeeded: upper))
        default: return .json(start: UInt32(truncatingIfNeeded: lower), end: UInt32(truncatingIfNeeded: upper))
        }
    }

    private func frame(_ random: inout SeededGenerator, source: CrashReport.SharedText?) -> CrashReport.Frame {
        var frame = CrashReport.Frame(
            index: signed(&random),
            image: optional(&random) { string(&$0) },
            address: optional(&random) { HexValue(number(&$0)) },
            imageOffset: optional(&random) { number(&$0) },
            symbolOffset: optional(&random) { number(&$0) },
            line: optional(&random) { signed(&$0) },
            column: optional(&random) { signed(&$0) },
            inlined: optional(&random) { $0.chance() },
            isAppFrame: optional(&random) { $0.chance() }
        )
        let bytes = source?.bytes ?? []
        frame.source = source
        frame.symbolText = frameText(&random, source: bytes)
        frame.fileText = frameText(&random, source: bytes)
        frame.rawLine = frameText(&random, source: bytes)
        frame.mangledSymbol = optional(&random) { string(&$0) }
        return frame
    }

    private func lazyText(_ random: inout SeededGenerator, source: CrashReport.SharedText) -> CrashReport.LazyText? {
        let lower = random.below(source.bytes.count + 1)
        let upper = lower + random.below(source.bytes.count - lower + 1)
        switch random.below(5) {
        case 0: return nil
        case 1: return .text(string(&random))
        case 2: return .shared(source, start: lower, end: upper)
        case 3: return .uuid(source, start: lower, end: upper)
        default: return .json(source, start: lower, end: upper)
        }
    }

    private func image(_ random: inout SeededGenerator, source: CrashReport.SharedText) -> CrashReport.BinaryImage {
        var image = CrashReport.BinaryImage(
            name: optional(&random) { string(&$0) },
            base: HexValue(number(&random)),
            end: optional(&random) { HexValue(number(&$0)) },
            arch: optional(&random) { string(&$0) },
            version: optional(&random) { string(&$0) },
            bundleId: optional(&random) { string(&$0) },
            isApp: random.chance(),
            source: optional(&random) { string(&$0) }
        )
        image.uuidText = lazyText(&random, source: source)
        image.pathText = lazyText(&random, source: source)
        return image
    }

    /// Kept JSON with what the writers must get right: unsorted, repeated and non-ASCII keys, numbers in every
    /// written form.
    private func json(_ random: inout SeededGenerator, depth: Int = 0) -> JSONValue {
        let numbers = ["0", "-0", "1.50", "1e400", "123456789012345678901234567890", "-7", "0.1", "2E-3"]
        let keys = ["b", "a", "é", "e\u{301}", "A", "b", "\u{1F600}", ""]
        switch random.below(depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.chance())
        case 2: return .number(numbers[random.below(numbers.count)])
        case 3: return .string(string(&random))
        case 4: return .array((0..<random.below(4)).map { _ in json(&random, depth: depth + 1) })
        default:
            return .object(
                (0..<random.below(5)).map { _ in
                    JSONValue.Member(key: keys[random.below(keys.count)], value: json(&random, depth: depth + 1))
                }
            )
        }
    }

    private func timestamp(_ random: inout SeededGenerator) -> AppleTimestamp? {
        let texts = ["2024-01-18 14:02:51.00 -0500", "2023-06-01 00:00:00.1234 +0000", "2022-12-31 23:59:59 +0530"]
        return AppleTimestamp(texts[random.below(texts.count)])
    }

    private func strings(_ random: inout SeededGenerator) -> [String] {
        (0..<random.below(4)).map { _ in string(&random) }
    }

    /// A report with every top-level member present or absent at random, its parts included.
    private func report(_ random: inout SeededGenerator, frames: [CrashReport.Frame], threads: [CrashReport.Thread])
        -> CrashReport
    {
        func text(_ random: inout SeededGenerator) -> String? { optional(&random) { string(&$0) } }
        func int64(_ random: inout SeededGenerator) -> Int64? { optional(&random) { Int64(signed(&$0)) } }
        func hex(_ random: inout SeededGenerator) -> HexValue? { optional(&random) { HexValue(number(&$0)) } }
        func flag(_ random: inout SeededGenerator) -> Bool? { optional(&random) { $0.chance() } }
        let formats: [CrashReport.SourceFormat] = [
            .ips309, .ipsText, .text, .translatedText, .fragment, .kscrash, .spindump,
        ]
        let platforms: [OSVersion.Platform] = [.iOS, .macOS, .watchOS, .tvOS, .visionOS, .unknown]
        var report = CrashReport(sourceFormat: formats[random.below(formats.count)])
        if random.chance() {
            report.header = IPSHeader(
                bugType: text(&random),
                bugTypeName: text(&random),
                timestamp: timestamp(&random),
                osVersion: text(&random),
                incidentID: text(&random),
                name: text(&random),
                bundleID: text(&random),
                appVersion: text(&random),
                fields: json(&random)
            )
        }
        report.incidentID = text(&random)
        report.crashReporterKey = text(&random)
        report.betaIdentifier = text(&random)
        report.hardwareModel = text(&random)
        report.deviceName = text(&random)
        report.process = text(&random)
        report.pid = int64(&random)
        report.path = text(&random)
        report.bundleId = text(&random)
        report.appVersion = text(&random)
        report.appBuild = text(&random)
        report.codeType = text(&random)
        report.isTranslated = flag(&random)
        report.role = text(&random)
        report.parentProcess = text(&random)
        report.parentPid = int64(&random)
        report.responsibleProcess = text(&random)
        report.responsiblePid = int64(&random)
        report.coalition = text(&random)
        report.coalitionId = int64(&random)
        report.date = random.chance() ? timestamp(&random) : nil
        report.launchTime = random.chance() ? timestamp(&random) : nil
        report.osVersion = text(&random)
        report.osName = text(&random)
        report.osVersionNumber = text(&random)
        report.osBuild = text(&random)
        report.releaseType = text(&random)
        report.platform = platforms[random.below(platforms.count)]
        report.reportVersion = text(&random)
        if random.chance() {
            report.exception = CrashReport.Exception(
                type: text(&random),
                signal: text(&random),
                codes: text(&random),
                codeValues: optional(&random) { r in (0..<r.below(3)).map { _ in HexValue(number(&r)) } },
                subtype: text(&random),
                message: text(&random),
                note: text(&random),
                isCorpse: flag(&random),
                isSimulated: flag(&random),
                isNonFatal: flag(&random),
                kernReturn: text(&random),
                faultAddress: hex(&random),
                possiblePointerAuthenticationFailure: flag(&random),
                meaning: text(&random)
            )
        }
        if random.chance() {
            report.termination = CrashReport.Termination(
                namespace: text(&random),
                code: hex(&random),
                indicator: text(&random),
                reasons: strings(&random),
                details: optional(&random) { strings(&$0) },
                byProcess: text(&random),
                byPid: int64(&random),
                flags: hex(&random),
                description: text(&random),
                raw: text(&random)
            )
        }
        report.crashedThread = optional(&random) { signed(&$0) }
        report.applicationSpecificInformation = optional(&random) { strings(&$0) }
        report.lastExceptionBacktrace = random.chance() ? frames : nil
        report.threads = random.chance() ? threads : []
        report.blocks = (0..<random.below(3)).map { _ in
            random.chance()
                ? CrashReport.Block(title: string(&random), lines: strings(&random))
                : CrashReport.Block(title: string(&random), text: string(&random) + "\r\n\n" + string(&random) + "\n\n")
        }
        report.signature = text(&random)
        report.signatureFrames = optional(&random) { strings(&$0) }
        report.isNotACrash = random.chance()
        report.isPartial = random.chance()
        report.unknownKeys = optional(&random) { json(&$0) }
        return report
    }

    @Test func randomValuesWriteAsTheirCodableForm() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            let source = CrashReport.SharedText(bytes(&random) + bytes(&random))
            let frames = (0..<random.below(4)).map { _ in
                let windowed = random.chance()
                return frame(&random, source: windowed ? source : nil)
            }
            let images = (0..<random.below(4)).map { _ in image(&random, source: source) }
            let registers = (0..<random.below(4)).map { _ in
                CrashReport.Register(
                    name: string(&random),
                    value: HexValue(number(&random)),
                    description: optional(&random) { string(&$0) }
                )
            }
            let threads = (0..<random.below(3)).map { position in
                CrashReport.Thread(
                    index: position,
                    id: optional(&random) { number(&$0) },
                    name: optional(&random) { string(&$0) },
                    queue: optional(&random) { string(&$0) },
                    crashed: random.chance(),
                    attributed: random.chance(),
                    frames: random.chance() ? frames : [],
                    registerFlavor: optional(&random) { string(&$0) },
                    registers: random.chance() ? registers : (random.chance() ? [] : nil)
                )
            }
            #expect(
                directEncodingMismatches(NestedHolder(single: frames.first, list: frames, nested: [frames, []])) == [],
                "frames, seed \(seed)"
            )
            #expect(
                directEncodingMismatches(NestedHolder(single: threads.first, list: threads, nested: [threads, []]))
                    == [],
                "threads, seed \(seed)"
            )
            #expect(
                directEncodingMismatches(NestedHolder(single: images.first, list: images, nested: [images])) == [],
                "images, seed \(seed)"
            )
            #expect(
                directEncodingMismatches(NestedHolder(single: registers.first, list: registers, nested: [registers]))
                    == [],
                "registers, seed \(seed)"
            )
            let reports = (0..<2).map { _ in report(&random, frames: frames, threads: threads) }
            #expect(
                directEncodingMismatches(NestedHolder(single: reports.first, list: reports, nested: [reports])) == [],
                "reports, seed \(seed)"
            )
        }
    }
}
