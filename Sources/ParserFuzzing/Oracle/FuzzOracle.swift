import APMInspectCore
import CrashReportParsing
import Foundation
import HTTPCaptureParsing
import InputMutation
import ReportInspection

/// Runs one input through what `inspect` runs and checks the properties every parse must have.
///
/// Sniffing, the family's parser and both renderers all run. A trap anywhere in here kills the worker, which is what the supervisor sees.
struct FuzzOracle {
    let inspector = ReportInspector()
    /// A private folder for inputs that must be files (SQLite, compressed SQLite); owned by the supervisor.
    let temporaryFolder: String
    /// The CI hook's mode (``SelfTestHook``); nil outside CI's self-test.
    let selfTestMode: String?
    /// The executable's text rendering: run on every report so that a trap in it is a finding too.
    let renderText: (Inspection) -> Void
    private var counter = 0

    /// The key inserted to check that unknown keys are kept (a name no report uses).
    static let unknownKey = "apmInspectFuzzUnknownKey"

    /// The lenient JSON reader's repairs that skip text: the added key skipped with it is reported, not dropped.
    static let skippedText: Set<Diagnostic.Code> = [.jsonSkippedText]

    /// A JetsamEvent's note that unknown values past the report's allowance were not kept, the added key with them.
    static let unknownValuesDropped = Diagnostic.Code.jetsamUnknownValuesLimit

    init(temporaryFolder: String, selfTestMode: String? = nil, renderText: @escaping (Inspection) -> Void) {
        self.temporaryFolder = temporaryFolder
        self.selfTestMode = selfTestMode
        self.renderText = renderText
    }

    mutating func check(_ bytes: [UInt8]) -> WorkerVerdict {
        SelfTestHook.run(on: bytes, mode: selfTestMode)
        let verdict = inspectVerdict(bytes)
        // Any Mach-O or fat magic goes on to the symbolication readers, a fat header with a damaged count too:
        // refusing it is their job. A text file of mangled names goes on to the demanglers.
        guard verdict.property == nil else { return verdict }
        if MachOMagic(bytes) != nil { return machOVerdict(bytes) }
        if let names = DemanglerProbe.nameList(bytes) { return namesVerdict(names) }
        return verdict
    }

    /// What `inspect` makes of the bytes, and the properties of its output.
    private mutating func inspectVerdict(_ bytes: [UInt8]) -> WorkerVerdict {
        let format = ContentSniffer.format(of: bytes)
        let path = materialise(bytes, format: format)
        defer { if path != "fuzz-input" { unlink(path) } }
        let first = inspector.inspect(bytes: bytes, path: path)
        let kind = first.kind.rawValue
        renderText(first)
        let json: String
        do {
            json = try SortedJSONEncoder(pretty: false).encode(first)
        } catch {
            return WorkerVerdict(kind: kind, property: "json-encode", message: "\(error)")
        }
        if let problem = Self.invalidJSON(json) {
            return WorkerVerdict(kind: kind, property: "invalid-json-output", message: problem)
        }
        let second = inspector.inspect(bytes: bytes, path: path)
        if let again = try? SortedJSONEncoder(pretty: false).encode(second), again != json {
            return WorkerVerdict(
                kind: kind,
                property: "nondeterministic-parse",
                message: "two parses of the same bytes differ: " + Self.firstDifference(json, again)
            )
        }
        if first.kind == .httpArchive, first.failure == nil, let problem = streamedTransactionsDiffer(bytes) {
            return WorkerVerdict(kind: kind, property: "streamed-transactions-differ", message: problem)
        }
        guard first.failure == nil, format == .ips else { return WorkerVerdict(kind: kind) }
        // The round trip is promised for reports read cleanly; a repaired one is translated as well as it can be.
        let clean = !first.diagnostics.contains { $0.severity != .note }
        if first.kind == .crashReport, clean, let problem = roundTrip(bytes, json: json) {
            return WorkerVerdict(kind: kind, property: "translate-round-trip", message: problem)
        }
        if first.kind == .crashReport || first.kind == .jetsamEvent,
            let problem = unknownKeyDropped(bytes, kind: first.kind)
        {
            return WorkerVerdict(kind: kind, property: "dropped-unknown-key", message: problem)
        }
        return WorkerVerdict(kind: kind)
    }

    /// A HAR written as `http --format json` writes it, built once into a spool and renumbered, must be the bytes of
    /// its transactions read whole; and its stream, rebuilt entry by entry, the capture read whole.
    private func streamedTransactionsDiffer(_ bytes: [UInt8]) -> String? {
        let reader = HTTPCaptureReader()
        guard let whole = try? reader.read(bytes) else {
            return "the streamed read succeeded where the whole read threw"
        }
        let encoder = SortedJSONEncoder(pretty: false)
        guard let spool = try? HTTPTransactionSpool(encoder: encoder, depth: 2, directory: temporaryFolder),
            let stream = try? reader.readStream(bytes, spool: spool)
        else { return "the read with a spool threw" }
        if stream.diagnostics != whole.diagnostics { return "the spooled read's diagnostics differ" }
        if stream.whole != whole.capture { return "the transactions rebuilt one by one differ" }
        guard stream.isSpooled else { return nil }
        var written: [UInt8] = []
        guard spool.writeTransactions(of: stream, to: { written += $0 }) else { return "the spool could not be read" }
        guard let expected = try? encoder.encode(whole.capture.transactions, depth: 2) else { return nil }
        let text = String(decoding: written, as: UTF8.self)
        return text == expected ? nil : "spooled: " + Self.firstDifference(expected, text)
    }

    /// SQLite (plain or gzip-compressed) is read from a file: the bytes go to a private temporary one.
    private mutating func materialise(_ bytes: [UInt8], format: ContentFormat) -> String {
        guard format == .sqlite || format == .gzip else { return "fuzz-input" }
        counter += 1
        let path = temporaryFolder + "/input-\(getpid())-\(counter)"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return "fuzz-input" }
        return path
    }

    /// Strict JSON, with no depth limit of its own: the output may nest a little deeper than the input it keeps.
    static let outputOptions = JSONParseOptions(maxDepth: 1 << 20, lenient: false)

    static func invalidJSON(_ json: String) -> String? {
        do {
            _ = try JSONDocument(bytes: Array(json.utf8), options: outputOptions)
            return nil
        } catch {
            return "the JSON output does not parse: \(error.message)"
        }
    }

    static func firstDifference(_ a: String, _ b: String) -> String {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var i = 0
        while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
        let from = max(i - 40, 0)
        let context = { (bytes: [UInt8]) in
            String(decoding: bytes[min(from, bytes.count)..<min(i + 40, bytes.count)], as: UTF8.self)
        }
        return "at byte \(i): …\(context(x))… vs …\(context(y))…"
    }

    /// A bug_type 309 report translated to text must read back as the same crash (what `.ci/steps/translate.sh`
    /// checks on the conformance corpus): process, pid, exception, crashed thread, threads and their frames.
    private func roundTrip(_ bytes: [UInt8], json: String) -> String? {
        guard IPSContainer(bytes: bytes).header?.bugType == "309",
            let translation = try? CrashTextTranslator().translation(of: bytes)
        else { return nil }
        let back = inspector.inspect(bytes: Array(translation.text.utf8), path: "translated")
        guard back.kind == .crashReport else { return "the translated text was read as \(back.kind.rawValue)" }
        // The text reader reads lines up to 64 KiB whole and says where it cut a longer one: a name of 65,000
        // characters is translated whole, and the frame it sits in is then lost with a warning, not silently.
        if back.diagnostics.contains(where: { $0.code == .crashLineTooLong }) { return nil }
        guard let backJSON = try? SortedJSONEncoder(pretty: false).encode(back),
            let a = try? JSONDocument(bytes: Array(json.utf8), options: Self.outputOptions),
            let b = try? JSONDocument(bytes: Array(backJSON.utf8), options: Self.outputOptions),
            let ra = a.root["report"], let rb = b.root["report"]
        else { return nil }
        func threads(_ report: JSONElement) -> [JSONElement] { report["threads"].map { Array($0.elements) } ?? [] }
        // The text escapes every control a value holds (so no value forges a line of its own): a name is
        // compared with what the text promises to show of it, not with its raw bytes.
        func shown(_ value: JSONElement?) -> String {
            guard let value else { return "-" }
            guard let text = value.string else { return value.rawText ?? "-" }
            return TerminalText.escapedKeepingLayout(text).split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\\n")
        }
        func read(_ value: JSONElement?) -> String { value.flatMap { $0.string ?? $0.rawText } ?? "-" }
        let checks: [(String, String, String)] = [
            ("process", shown(ra["process"]), read(rb["process"])),
            ("pid", ra["pid"]?.rawText ?? "-", rb["pid"]?.rawText ?? "-"),
            ("exception type", shown(ra["exception"]?["type"]), read(rb["exception"]?["type"])),
            ("crashed thread", ra["crashedThread"]?.rawText ?? "-", rb["crashedThread"]?.rawText ?? "-"),
            ("thread count", "\(threads(ra).count)", "\(threads(rb).count)"),
            (
                "frame addresses",
                threads(ra).map {
                    ($0["frames"].map { Array($0.elements) } ?? []).map { $0["address"]?.rawText ?? "-" }
                }
                .description,
                threads(rb).map {
                    ($0["frames"].map { Array($0.elements) } ?? []).map { $0["address"]?.rawText ?? "-" }
                }
                .description
            ),
        ]
        for (name, before, after) in checks where before != after {
            return "\(name) differs after translate: \(before.prefix(200)) → \(after.prefix(200))"
        }
        return nil
    }

    /// Crash and JetsamEvent models keep the body's unknown top-level keys: one is added, and must come out.
    private func unknownKeyDropped(_ bytes: [UInt8], kind: FileKind) -> String? {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        var brace = newline + 1
        while brace < bytes.count, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[brace]) { brace += 1 }
        guard brace < bytes.count, bytes[brace] == UInt8(ascii: "{") else { return nil }
        var probe = bytes
        probe.insert(contentsOf: Array("\"\(Self.unknownKey)\":1,".utf8), at: brace + 1)
        let inspection = inspector.inspect(bytes: probe, path: "fuzz-input")
        guard inspection.kind == kind, inspection.failure == nil,
            let json = try? SortedJSONEncoder(pretty: false).encode(inspection)
        else { return nil }
        guard !json.contains(Self.unknownKey) else { return nil }
        // With a damaged header line the body is not a document of its own: the key may land where the lenient
        // reader expects no key and skips text. That is a repair it reports, not a silent drop.
        let at = brace + 1
        let reported = inspection.diagnostics.contains { diagnostic in
            // Past the listed repairs the parser sums the rest up in one note (a note, as the summary of
            // warnings listed above it) with the stretch they lie in.
            if diagnostic.code == .jsonMoreRepairsNotListed, let first = diagnostic.location?.byteOffset,
                let last = diagnostic.location?.lastByteOffset, first <= last, (first...last + 1).contains(at)
            {
                return true
            }
            guard diagnostic.severity >= .warning else { return false }
            // A body whose unknown values used up the report's allowance before the added key (a fragment
            // repeated by the hundred, each member counted) drops it and says how many it dropped.
            if diagnostic.code == Self.unknownValuesDropped { return true }
            guard let offset = diagnostic.location?.byteOffset else { return false }
            return Self.skippedText.contains(diagnostic.code) && (at - 1...at).contains(offset)
        }
        return reported ? nil : "an unknown top-level key added to the body is missing from the JSON output"
    }
}
