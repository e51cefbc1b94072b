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

    /// One text to write: the input (or archive member) it came from, and its key path within a MetricKit payload.
    struct Piece {
        var source: String
        var keyPath: String?
        var text: String
        /// The piece's number among its source's texts, when the source gave several.
        var part: Int?
    }

    /// Translates `paths`; true when an input gave no report or a write failed (exit status 1).
    ///
    /// The texts go into `output` when given (a file for one report, a folder for several inputs or an archive,
    /// made when missing), else to standard output; `inputs` are never written over. An archive (a sysdiagnose)
    /// gives the text of each crash report inside it, named `ARCHIVE!/member`; its other members are left out.
    package func run(_ paths: [String], output: String?, protecting inputs: Set<FileIdentity>) -> Bool {
        var folderReady = false
        var names = Set<String>()
        var failed = false
        var shown = 0
        let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbols, sink: sink)
        for path in paths {
            if sink.stopped { break }
            guard let (pieces, fromArchive) = translations(of: path, symbolication: symbolication) else {
                failed = true
                continue
            }
            let intoFolder = paths.count > 1 || fromArchive
            if let output, intoFolder {
                if !folderReady, let problem = OutputFolder.prepare(output) {
                    sink.error(ErrorLine.render(path: output, location: nil, message: problem))
                    return true
                }
                folderReady = true
                for piece in pieces {
                    let name = Self.outputName(for: piece.source, taken: &names, part: piece.part)
                    failed = !write(piece.text, to: output + "/" + name, protecting: inputs) || failed
                }
            } else if let output {
                // One report file: its reports in one file, each after its heading when there are several.
                let text = pieces.enumerated().map { number, piece in
                    pieces.count > 1
                        ? (number > 0 ? "\n" : "") + Self.heading(piece.source, piece.keyPath) + "\n" + piece.text
                        : piece.text
                }.joined()
                failed = !write(text, to: output, protecting: inputs) || failed
            } else {
                for piece in pieces {
                    if paths.count > 1 || pieces.count > 1 || fromArchive {
                        sink.out(
                            (shown > 0 ? "\n" : "") + TerminalText.escaped(Self.heading(piece.source, piece.keyPath))
                                + "\n"
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

    /// The Apple texts of the input at `path`; nil after saying on standard error why there is none.
    ///
    /// One for a crash report, one per crash diagnostic of a MetricKit payload (with its key path), those of every
    /// crash report in an archive. The flag says the input was an archive.
    private func translations(
        of path: String,
        symbolication: ReportSymbolication?
    ) -> (pieces: [Piece], fromArchive: Bool)? {
        switch InputCheck.reportBytes(atPath: PathWalker.openable(path)) {
        case .problem(let message, let location):
            sink.error(ErrorLine.render(path: path, location: location, message: message))
            return nil
        case .bytes(let bytes, let notes):
            sink.error(notes, about: path)
            if let problem = Self.notTranslatable(bytes) {
                sink.error(ErrorLine.render(path: path, location: nil, message: problem))
                return nil
            }
            let texts = translations(of: bytes, source: path, symbolication: symbolication, quiet: false)
            return texts.map { (Self.pieces($0, source: path), false) }
        case .archive(let file, let bytes):
            return archiveTranslations(path: path, file: file, bytes: bytes, symbolication: symbolication).map {
                ($0, true)
            }
        }
    }

    /// The pieces of one source's texts, numbered when there are several.
    private static func pieces(_ texts: [ReportTranslation.Report], source: String) -> [Piece] {
        texts.enumerated().map { number, report in
            Piece(source: source, keyPath: report.keyPath, text: report.text, part: texts.count > 1 ? number + 1 : nil)
        }
    }

    /// The texts of the crash reports in a tar or tar.gz, read with the archive limits every command uses; nil
    /// after saying why when it holds none.
    private func archiveTranslations(
        path: String,
        file: String?,
        bytes: [UInt8]?,
        symbolication: ReportSymbolication?
    ) -> [Piece]? {
        let shown = PathWalker.shown(path)
        var pieces: [Piece] = []
        var leftOut = 0
        do {
            func member(_ entry: TarEntry) {
                guard entry.kind == .file, !entry.skippedForSize, !entry.data.isEmpty, !sink.stopped else { return }
                let source = "\(shown)!/\(entry.path)"
                var data = entry.data
                if ContentSniffer.format(of: data) == .gzip, let expanded = try? ReportInspector.expandGzip(data) {
                    data = expanded.bytes
                }
                // Only what the translator reads: an .ips, a KSCrash report or a MetricKit payload (JSON). Text
                // reports, logs and plists of a sysdiagnose are left out, and so is JSON that is not a crash.
                let format = ContentSniffer.format(of: data)
                guard format == .ips || format == .json,
                    let texts = translations(of: data, source: source, symbolication: symbolication, quiet: true)
                else {
                    leftOut += 1
                    return
                }
                pieces += Self.pieces(texts, source: source)
            }
            let reader = TarReader()
            let findings =
                try file.map { try reader.read(fileAt: $0, member) } ?? reader.read(bytes: bytes ?? [], member)
            sink.error(findings.filter { $0.severity >= .warning }, about: shown)
        } catch {
            sink.error(ErrorLine.render(path: shown, location: nil, message: "cannot read the archive: \(error)"))
            return nil
        }
        guard !pieces.isEmpty else {
            let message = "the archive holds no crash report translate reads (\(leftOut) other file(s) left out)"
            sink.error(ErrorLine.render(path: shown, location: nil, message: message))
            return nil
        }
        return pieces
    }

    /// The texts of one report's bytes; nil when it gives none.
    ///
    /// `quiet` (an archive member that may be no crash at all) keeps the reasons to itself; its repairs are still
    /// said.
    private func translations(
        of bytes: [UInt8],
        source path: String,
        symbolication: ReportSymbolication?,
        quiet: Bool
    ) -> [ReportTranslation.Report]? {
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
        if quiet && result.reports == nil { return nil }
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
        return result.reports
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
        if base.lowercased().hasSuffix(".ips.gz") { base.removeLast(3) }
        if base.lowercased().hasSuffix(".ips") { base.removeLast(4) }
        if part != nil, base.lowercased().hasSuffix(".json") { base.removeLast(5) }
        if base.isEmpty { base = "report" }
        if let part { base += "-\(part)" }
        return OutputFolder.uniqueName(base, suffix: ".crash", taken: &taken)
    }
}
