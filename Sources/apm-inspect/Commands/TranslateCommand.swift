import APMInspectCore
import ArgumentParser
import CrashReportParsing
import Foundation
import MetricKitParsing
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect translate FILE.ips`: the classic Apple text report, as Apple's own translation writes it.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a JSON (bug_type 309) crash report into Apple's classic text report.",
        discussion: """
            Writes what Apple's OSAnalytics translation (Console, Xcode) writes: the iOS layout (Report Version \
            104) for iOS, iPadOS, tvOS and watchOS reports, the macOS layout (Report Version 12) for macOS ones. \
            The text goes to standard output unless -o names a file; several reports go to standard output each \
            after a line `==> PATH <==` (as `head` separates files), or with -o into that folder (made when \
            missing), each as NAME.crash. A MetricKit diagnostic payload gives one report per crash diagnostic, \
            each after a line `==> PATH KEYPATH <==` when there are several (NAME-N.crash in a folder). \
            docs/crash-translation.md lists the known differences from Apple's output.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "A JSON crash report as Apple's text",
            "translate Corpus/crash/ios17.2.1_309_*.ips"
        ),
        HelpExample(
            "The crash diagnostics of a MetricKit payload",
            "translate Corpus/metrickit/ios17.5_crash_*.json"
        ),
    ]

    @Argument(
        help: "bug_type 309 .ips crash reports, KSCrash reports or MetricKit payloads (- for standard input).",
        completion: .file()
    )
    var paths: [String]

    @Option(
        name: .shortAndLong,
        help: "Write the text to this file (one report) or into this folder (several) instead of standard output.",
        completion: .file()
    )
    var output: String?

    @Option(help: "Force a layout: ios or macos (default: from the report's platform).")
    var layout: String?

    @Option(parsing: .upToNextOption, help: "Symbolicate the reports with these dSYMs, Mach-O files, folders or zips.")
    var dsym: [String] = []

    func validate() throws {
        try PathWalker.validate(paths)
        if let layout, Self.layout(named: layout) == nil { throw ValidationError("--layout must be ios or macos") }
    }

    private static func layout(named name: String) -> AppleTextLayout? {
        switch name.lowercased() {
        case "ios": return .iOS
        case "macos": return .macOS
        default: return nil
        }
    }

    /// Why `bytes` (from a pipe, say) cannot be translated before the translator tries: no bytes, or a report
    /// that is text already.
    static func notTranslatable(_ bytes: [UInt8]) -> String? {
        switch ContentSniffer.format(of: UTF16Text(bytes: bytes)?.utf8 ?? bytes) {
        case .empty: InputCheck.emptyFileMessage
        case .crashText:
            "already a text crash report: nothing to translate (`apm-inspect inspect` reads it as it is)"
        default: nil
        }
    }

    func run() throws {
        let folder = paths.count > 1 ? output : nil
        // The reports (and dSYMs) are evidence: an output that is one of them, however spelled, is never written.
        let inputs = OutputFile.identities(of: paths + dsym)
        if folder == nil, let output { try OutputFile.refuseUnusable(output, option: "-o", inputs: inputs) }
        if let folder, let problem = Self.prepareFolder(folder) {
            Console.error(ErrorLine.render(path: folder, location: nil, message: problem))
            throw ExitCode(1)
        }
        var names = Set<String>()
        var failed = false
        var shown = 0
        let symbolication = ReportSymbolication.make(dsymPaths: dsym)
        for path in paths {
            if Console.outputFailed { break }
            guard let texts = translations(of: path, symbolication: symbolication) else {
                failed = true
                continue
            }
            if let folder {
                for (number, piece) in texts.enumerated() {
                    let name = Self.outputName(for: path, taken: &names, part: texts.count > 1 ? number + 1 : nil)
                    let target = folder + "/" + name
                    if let failure = OutputFile.write(piece.text, toPath: target, protecting: inputs) {
                        let message = "cannot write the report: \(failure)"
                        Console.error(ErrorLine.render(path: target, location: nil, message: message))
                        failed = true
                    }
                }
            } else if let output {
                // One input: its reports in one file, each after its heading when there are several.
                let text = texts.enumerated().map { number, piece in
                    texts.count > 1
                        ? (number > 0 ? "\n" : "") + Self.heading(path, piece.keyPath) + "\n" + piece.text : piece.text
                }.joined()
                if let failure = OutputFile.write(text, toPath: output, protecting: inputs) {
                    let message = "cannot write the report: \(failure)"
                    Console.error(ErrorLine.render(path: output, location: nil, message: message))
                    failed = true
                }
            } else {
                for piece in texts {
                    if paths.count > 1 || texts.count > 1 {
                        Console.out(
                            (shown > 0 ? "\n" : "") + TerminalText.escaped(Self.heading(path, piece.keyPath)) + "\n"
                        )
                    }
                    shown += 1
                    // The text is data meant for a file; shown on a terminal, the report's own bytes are escaped.
                    if Console.stdoutIsTerminal { Console.text(piece.text) } else { Console.out(piece.text) }
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// `==> PATH <==`, as `head` separates files; with the key path of a diagnostic within a MetricKit payload.
    static func heading(_ path: String, _ keyPath: String?) -> String {
        "==> " + path + (keyPath.map { " " + $0 } ?? "") + " <=="
    }

    /// The Apple texts of the input at `path`: one for a crash report, one per crash diagnostic of a MetricKit
    /// payload (with its key path); nil after saying on standard error why there is none.
    private func translations(
        of path: String,
        symbolication: ReportSymbolication?
    ) -> [(keyPath: String?, text: String)]? {
        let openable = PathWalker.openable(path)
        if let problem = InputCheck.problem(atPath: openable) ?? InputCheck.archiveHint(atPath: openable) {
            Console.error(ErrorLine.render(path: path, location: nil, message: problem))
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: openable)
        } catch {
            Console.error(ErrorLine.render(path: path, location: error.location, message: error.message))
            return nil
        }
        if let problem = Self.notTranslatable(bytes) {
            Console.error(ErrorLine.render(path: path, location: nil, message: problem))
            return nil
        }
        let chosen = layout.flatMap(Self.layout(named:))
        let result: ReportTranslation.Result
        if MetricKitReader.recognise(bytes) {
            result = ReportTranslation.metricKit(bytes, layout: chosen, dsymGiven: !dsym.isEmpty)
        } else {
            var bytes = bytes
            if let symbolication, let symbolicated = Self.symbolicated(bytes, path: path, with: symbolication) {
                bytes = symbolicated
            }
            result = ReportTranslation.crash(bytes, layout: chosen)
        }
        for message in result.messages {
            switch message {
            case .diagnostics(let diagnostics):
                Console.error(diagnostics, about: path)
            case .error(let text, let location):
                Console.error(ErrorLine.render(path: path, location: location, message: text))
            case .warning(let text):
                Console.error(ErrorLine.render(path: path, location: nil, message: text, severity: "warning"))
            }
        }
        return result.reports?.map { (keyPath: $0.keyPath, text: $0.text) }
    }

    /// `--dsym`: the `.ips` with its frames resolved (translated as Apple translates a symbolicated one); nil
    /// keeps the bytes as read (a KSCrash report, or a body the parser refuses: the translator then says why).
    private static func symbolicated(_ bytes: [UInt8], path: String, with symbolication: ReportSymbolication)
        -> [UInt8]?
    {
        guard let result = try? symbolication.rewrite(bytes), result.report.sourceFormat == .ips309 else { return nil }
        for diagnostic in result.diagnostics
        where diagnostic.severity != .note && diagnostic.location?.keyPath?.hasPrefix("binaryImages") == true {
            Console.error(
                ErrorLine.render(
                    path: path,
                    location: nil,
                    message: diagnostic.message,
                    severity: diagnostic.severity.rawValue
                )
            )
        }
        return result.bytes
    }

    /// Makes the output folder when it is missing; why it cannot be used otherwise.
    private static func prepareFolder(_ folder: String) -> String? {
        var info = stat()
        if stat(folder, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "-o names a file; several reports need a folder"
        }
        guard mkdir(folder, 0o755) == 0 else { return "cannot make the folder: \(Console.describe(errno: errno))" }
        return nil
    }

    /// `NAME.crash` for the input `path` (its last component without `.ips`), numbered when two inputs share it;
    /// `NAME-PART.crash` for one of several reports of one input (the crashes of a MetricKit payload).
    static func outputName(for path: String, taken: inout Set<String>, part: Int? = nil) -> String {
        var base = path == PathWalker.standardInputArgument ? "stdin" : String(path.split(separator: "/").last ?? "")
        if base.lowercased().hasSuffix(".ips") { base.removeLast(4) }
        if part != nil, base.lowercased().hasSuffix(".json") { base.removeLast(5) }
        // Only a name, never a path: nothing outside the folder, no hidden or empty name.
        base = String(base.map { character in (character.asciiValue ?? 0x20) < 0x20 ? "_" : character })
        if base.isEmpty || base.hasPrefix(".") { base = "report" + base }
        if let part { base += "-\(part)" }
        var name = base + ".crash"
        var number = 2
        while taken.contains(name) {
            name = "\(base)-\(number).crash"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
