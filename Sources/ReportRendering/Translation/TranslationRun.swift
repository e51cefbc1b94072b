import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import ReportInspection
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `translate`'s pipeline: each input's Apple text reports (one for a crash report, one per crash diagnostic of a
/// MetricKit payload), to standard output after `==> PATH <==` headings, into one file, or into a folder.
package struct TranslationRun {
    /// `--layout`, nil to follow each report's platform.
    package var layout: AppleTextLayout?
    /// `--dsym`: the reports are symbolicated first.
    package var dsym: [String]
    /// `--symbols` and the environment's sources, searched with `--dsym` as one set.
    package var symbols: SymbolSources
    /// True when standard output is a terminal: the text, data meant for a file, is then escaped.
    package var stdoutIsTerminal: Bool
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(
        layout: AppleTextLayout?,
        dsym: [String],
        symbols: SymbolSources = SymbolSources(),
        stdoutIsTerminal: Bool,
        sink: OutputSink
    ) {
        self.layout = layout
        self.dsym = dsym
        self.symbols = symbols
        self.stdoutIsTerminal = stdoutIsTerminal
        self.sink = sink
    }

    /// `--layout ios|macos`, any case; nil for another name.
    package static func layout(named name: String) -> AppleTextLayout? {
        switch name.lowercased() {
        case "ios": return .iOS
        case "macos": return .macOS
        default: return nil
        }
    }

    /// Translates `paths`; true when an input gave no report or a write failed (exit status 1).
    ///
    /// The texts go into `output` when given (a file for one input, a folder for several, made when missing), else
    /// to standard output; `inputs` are never written over.
    package func run(_ paths: [String], output: String?, protecting inputs: Set<FileIdentity>) -> Bool {
        let folder = paths.count > 1 ? output : nil
        if let folder, let problem = OutputFolder.prepare(folder) {
            sink.error(ErrorLine.render(path: folder, location: nil, message: problem))
            return true
        }
        var names = Set<String>()
        var failed = false
        var shown = 0
        let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbols, sink: sink)
        for path in paths {
            if sink.stopped { break }
            guard let texts = translations(of: path, symbolication: symbolication) else {
                failed = true
                continue
            }
            if let folder {
                for (number, piece) in texts.enumerated() {
                    let name = Self.outputName(for: path, taken: &names, part: texts.count > 1 ? number + 1 : nil)
                    failed = !write(piece.text, to: folder + "/" + name, protecting: inputs) || failed
                }
            } else if let output {
                // One input: its reports in one file, each after its heading when there are several.
                let text = texts.enumerated().map { number, piece in
                    texts.count > 1
                        ? (number > 0 ? "\n" : "") + Self.heading(path, piece.keyPath) + "\n" + piece.text : piece.text
                }.joined()
                failed = !write(text, to: output, protecting: inputs) || failed
            } else {
                for piece in texts {
                    if paths.count > 1 || texts.count > 1 {
                        sink.out(
                            (shown > 0 ? "\n" : "") + TerminalText.escaped(Self.heading(path, piece.keyPath)) + "\n"
                        )
                    }
                    shown += 1
                    // The text is data meant for a file; shown on a terminal, the report's own bytes are escaped.
                    if stdoutIsTerminal { sink.text(piece.text) } else { sink.out(piece.text) }
                }
            }
        }
        return failed
    }

    /// Writes one report file; false after saying why it could not be written.
    private func write(_ text: String, to target: String, protecting inputs: Set<FileIdentity>) -> Bool {
        guard let failure = OutputFile.write(text, toPath: target, protecting: inputs) else { return true }
        sink.error(ErrorLine.render(path: target, location: nil, message: "cannot write the report: \(failure)"))
        return false
    }

    /// `==> PATH <==`, as `head` separates files; with the key path of a diagnostic within a MetricKit payload.
    package static func heading(_ path: String, _ keyPath: String?) -> String {
        "==> " + path + (keyPath.map { " " + $0 } ?? "") + " <=="
    }

    /// Why `bytes` (from a pipe, say) cannot be translated before the translator tries: no bytes, or a report
    /// that is text already.
    package static func notTranslatable(_ bytes: [UInt8]) -> String? {
        switch ContentSniffer.format(of: UTF16Text(bytes: bytes)?.utf8 ?? bytes) {
        case .empty: InputCheck.emptyFileMessage
        case .crashText:
            "already a text crash report: nothing to translate (`apm-inspect inspect` reads it as it is)"
        default: nil
        }
    }

    /// The Apple texts of the input at `path`: one for a crash report, one per crash diagnostic of a MetricKit
    /// payload (with its key path); nil after saying on standard error why there is none.
    private func translations(
        of path: String,
        symbolication: ReportSymbolication?
    ) -> [(keyPath: String?, text: String)]? {
        let openable = PathWalker.openable(path)
        if let problem = InputCheck.problem(atPath: openable) ?? InputCheck.archiveHint(atPath: openable) {
            sink.error(ErrorLine.render(path: path, location: nil, message: problem))
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: openable)
        } catch {
            sink.error(ErrorLine.render(path: path, location: error.location, message: error.message))
            return nil
        }
        if let problem = InputCheck.archiveHint(bytes: bytes) ?? Self.notTranslatable(bytes) {
            sink.error(ErrorLine.render(path: path, location: nil, message: problem))
            return nil
        }
        let result: ReportTranslation.Result
        if MetricKitReader.recognise(bytes) {
            result = ReportTranslation.metricKit(
                bytes,
                layout: layout,
                dsymGiven: !dsym.isEmpty || !symbols.local.isEmpty
            )
        } else {
            var bytes = bytes
            if let symbolication, let symbolicated = symbolicated(bytes, path: path, with: symbolication) {
                bytes = symbolicated
            }
            result = ReportTranslation.crash(bytes, layout: layout)
        }
        for message in result.messages {
            switch message {
            case .diagnostics(let diagnostics):
                sink.error(diagnostics, about: path)
            case .error(let text, let location):
                sink.error(ErrorLine.render(path: path, location: location, message: text))
            case .warning(let text):
                sink.error(ErrorLine.render(path: path, location: nil, message: text, severity: "warning"))
            }
        }
        return result.reports?.map { (keyPath: $0.keyPath, text: $0.text) }
    }

    /// `--dsym`: the `.ips` with its frames resolved (translated as Apple translates a symbolicated one); nil
    /// keeps the bytes as read (a KSCrash report, or a body the parser refuses: the translator then says why).
    private func symbolicated(_ bytes: [UInt8], path: String, with symbolication: ReportSymbolication) -> [UInt8]? {
        guard let result = try? symbolication.rewrite(bytes), result.report.sourceFormat == .ips309 else { return nil }
        for diagnostic in result.diagnostics
        where diagnostic.severity != .note && diagnostic.location?.keyPath?.hasPrefix("binaryImages") == true {
            sink.error(
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

    /// `NAME.crash` for the input `path` (its last component without `.ips`), numbered when two inputs share it;
    /// `NAME-PART.crash` for one of several reports of one input (the crashes of a MetricKit payload).
    package static func outputName(for path: String, taken: inout Set<String>, part: Int? = nil) -> String {
        var base = OutputFolder.baseName(of: path)
        if base.lowercased().hasSuffix(".ips") { base.removeLast(4) }
        if part != nil, base.lowercased().hasSuffix(".json") { base.removeLast(5) }
        if base.isEmpty { base = "report" }
        if let part { base += "-\(part)" }
        return OutputFolder.uniqueName(base, suffix: ".crash", taken: &taken)
    }
}
