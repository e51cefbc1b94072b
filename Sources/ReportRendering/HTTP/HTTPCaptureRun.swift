import APMInspectCore
import HTTPCaptureParsing
import ReportInspection
import ReportSources

/// `http`'s pipeline: the captures of each path (a file, those of a folder, those inside a tar or tar.gz), read one
/// at a time and printed as they are read, as text views or envelopes whose transactions are written one at a time.
package struct HTTPCaptureRun {
    /// `text`, `json` or `ndjson`.
    package var format: OutputFormat
    /// Reading options (`--show-secrets` clears ``HTTPCaptureOptions/redactSecrets``).
    package var options: HTTPCaptureOptions
    /// How many of the slowest requests the text view's waterfall shows.
    package var slowest: Int
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(format: OutputFormat, options: HTTPCaptureOptions, slowest: Int, sink: OutputSink) {
        self.format = format
        self.options = options
        self.slowest = slowest
        self.sink = sink
    }

    /// Reads and prints the captures of `paths`; true when one failed (exit status 1).
    ///
    /// A capture that could not be read fails, as does a folder or archive that held none. `oneObject`: `--format
    /// json` prints the only envelope as an object.
    package func run(_ paths: [String], oneObject: Bool, temporary: TemporaryFolder) -> Bool {
        // `buildsAhead` stays off: rebuilding a HAR's transactions on a second thread took about a fifth off the wall
        // time of `--format json` but cost a third more CPU (transactions handed between threads), more than the
        // single thread's whole wall time once the rebuild got cheaper.
        let output = EnvelopePrinter(format: format, oneObject: oneObject, sink: sink)
        // One spool for every capture: each read empties it first.
        let spool = output.transactionSpool()
        var failed = false
        arguments: for argument in paths {
            let inFolder = PathWalker.isFolder(argument)
            let inArchive = !inFolder && ArchiveScanner.isArchive(atPath: argument)
            var captures = 0
            let inputs = PathWalker.inputs(in: [argument]) { note in
                sink.error(ErrorLine.render(path: note.path, location: nil, message: note.message, severity: "note"))
            }
            for input in inputs {
                // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
                if sink.stopped { break arguments }
                for (inspection, stream) in read(input, inFolder: inFolder, spool: spool, temporary: temporary) {
                    // An archive's own envelope (its findings) is not a capture.
                    if inspection.kind != .archive { captures += 1 }
                    if let failure = inspection.failure {
                        failed = true
                        sink.error(
                            ErrorLine.render(
                                path: inspection.file,
                                location: failure.location,
                                message: failure.message
                            )
                        )
                    }
                    // Begun at the first envelope: standard input that held an archive prints an array, as the
                    // archive's file does.
                    let fromArchive = inspection.file.hasPrefix(PathWalker.standardInputArgument + "!/")
                    output.begin(fromArchive: fromArchive || inspection.kind == .archive)
                    if format == .text {
                        printText(inspection)
                    } else if output.print(inspection, transactions: stream, spool: spool) {
                        failed = true
                    }
                }
            }
            if (inFolder || inArchive) && captures == 0 {
                failed = true
                let place = inFolder ? "folder" : "archive"
                let message = "no HTTP capture (HAR, Charles session, pcap/pcapng) found in the \(place)"
                sink.error(ErrorLine.render(path: argument, location: nil, message: message))
            }
        }
        output.finish()
        return failed
    }

    /// Reads one input: its capture, or the captures inside it when it is a tar or tar.gz (a sysdiagnose); none for
    /// a file of a folder that is not a capture (a note says it was skipped).
    ///
    /// A file named on the command line is read whatever it is: the reader says why it is not a capture. For JSON
    /// output the transactions come in the stream, written one at a time (``EnvelopePrinter/print(_:transactions:)``).
    private func read(
        _ input: PathWalker.Input,
        inFolder: Bool,
        spool: HTTPTransactionSpool?,
        temporary: TemporaryFolder
    ) -> [(Inspection, HTTPCaptureStream?)] {
        let file: RawPath
        switch input {
        case .failure(let failure):
            return [(Self.failed(failure.path, failure.message), nil)]
        case .file(let raw):
            file = raw
        }
        let shown = PathWalker.shown(file.display)
        if ArchiveScanner.isArchive(atPath: file.display) {
            return archiveCaptures(shown: shown, temporary: temporary) { scanner, body in
                scanner.scan(archive: file.display, shownAs: shown, body)
            }
        }
        // A HAR in a regular file is read a window at a time for JSON output; anything else, whole (standard input
        // too, even redirected from a file: it is read from where it stands, not reopened).
        if format != .text, shown != PathWalker.standardInputArgument,
            let windowed = HTTPCaptureFamily.inspectStreaming(
                file: file,
                path: shown,
                options: options,
                spool: spool
            )
        {
            return [(windowed.0, windowed.1)]
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(at: file)
        } catch {
            return [(Self.failed(shown, error.message, code: error.code.rawValue, location: error.location), nil)]
        }
        if bytes.isEmpty { return [(Self.failed(shown, InputCheck.emptyFileMessage), nil)] }
        // Standard input or a FIFO comes whole (it cannot be sniffed first): a tar or tar.gz among them is read from
        // its bytes, so `cat captures.tar.gz | apm-inspect http -` gives what the file does.
        if ArchiveScanner.isArchive(prefix: bytes) {
            return archiveCaptures(shown: shown, temporary: temporary) { scanner, body in
                scanner.scan(bytes: bytes, shownAs: shown, body)
            }
        }
        if inFolder && HTTPCaptureReader.recognise(bytes) == nil {
            sink.error(
                ErrorLine.render(path: shown, location: nil, message: "not an HTTP capture; skipped", severity: "note")
            )
            return []
        }
        if format != .text {
            let (inspection, stream) = HTTPCaptureFamily.inspectStreaming(
                bytes: bytes,
                kind: nil,
                path: shown,
                options: options,
                spool: spool
            )
            return [(inspection, stream)]
        }
        let inspection = HTTPCaptureFamily.inspect(
            bytes: bytes,
            kind: nil,
            path: shown,
            options: options,
            summaryOnly: true
        )
        return [(inspection, nil)]
    }

    /// The captures inside a tar or tar.gz, read through the input layer every command shares (`ArchiveScanner`,
    /// the same limits), each named `ARCHIVE!/member`; the archive's findings go to standard error and, in the JSON
    /// formats, follow its captures as its own envelope (kind `archive`), as `inspect` and `scan` print them.
    private func archiveCaptures(
        shown: String,
        temporary: TemporaryFolder,
        scan: (ArchiveScanner, (Inspection) -> Void) -> [Diagnostic]
    ) -> [(Inspection, HTTPCaptureStream?)] {
        let family = ArchiveCaptureFamily(options: options, summaryOnly: format == .text)
        let scanner = ArchiveScanner(inspector: ReportInspector(families: [family]), temporary: temporary)
        var captures: [(Inspection, HTTPCaptureStream?)] = []
        let findings = scan(scanner) { captures.append(($0, nil)) }
        for finding in findings {
            sink.error(
                ErrorLine.render(
                    path: shown,
                    location: finding.location,
                    message: finding.message,
                    severity: finding.severity.rawValue
                )
            )
        }
        if format != .text && !findings.isEmpty {
            captures.append((Inspection.archive(shown, findings: findings), nil))
        }
        return captures
    }

    private static func failed(
        _ path: String,
        _ message: String,
        code: String = "unreadable",
        location: SourceLocation? = nil
    ) -> Inspection {
        Inspection(
            file: path,
            kind: .unknown,
            diagnostics: [],
            report: nil,
            failure: Inspection.Failure(code: code, message: message, location: location)
        )
    }

    private func printText(_ inspection: Inspection) {
        guard case .http(let capture) = inspection.report else { return }
        var text = HTTPRenderer.render(
            capture,
            file: TerminalText.escaped(inspection.file),
            title: InspectionRenderer.title(for: inspection.kind),
            detailed: true,
            slowest: slowest
        )
        text += Self.diagnosticsText(inspection.diagnostics)
        sink.fittedText(text + "\n")
    }

    private static func diagnosticsText(_ diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "" }
        var out = "\nDiagnostics\n"
        for diagnostic in diagnostics {
            out += "  \(diagnostic.severity.rawValue): \(TerminalText.escaped(diagnostic.message))"
            if let location = diagnostic.location { out += "  [\(location)]" }
            out += "\n"
        }
        return out
    }
}
