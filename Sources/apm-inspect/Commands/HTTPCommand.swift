import APMInspectCore
import ArgumentParser
import HTTPCaptureParsing
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect http FILE...`: request timings and network health from HAR, Charles and pcap/pcapng captures.
struct HTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Request timings and network health from HAR, Charles sessions and pcap/pcapng captures.",
        discussion: """
            Reads HAR 1.1/1.2 (also .zhar and .har.gz), Charles .chlsj and .chlsx, and pcap/pcapng. Prints error \
            rates, per-host percentiles of total, DNS, connect, TLS, time to first byte and receive, bytes by host \
            and type, and a waterfall of the slowest requests. --format json prints the envelope {file, kind, \
            diagnostics, report} with every transaction: one object for one file, an array for a folder, an \
            archive or several paths (--array: an array always). Folders are searched recursively for captures, \
            other files skipped with a note; the captures inside a tar or tar.gz are read as ARCHIVE!/member; - \
            reads standard input. Authorization, Cookie and Set-Cookie values are redacted \
            unless --show-secrets is given. Metric definitions: docs/http-captures.md.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("A Charles session", "http Corpus/http/charles_session.chlsj"),
        HelpExample("HTTP/1 and DNS timings from a packet capture", "http Corpus/http/generated_http1_dns.pcap"),
        HelpExample(
            "A HAR file's transactions as JSON",
            "http --format json Corpus/http/firefox_cache-hits_local-offset.har"
        ),
    ]

    @Argument(help: "Capture files, or folders to search for them (- for standard input).", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format.")
    var format: EnvelopeFormat = .text

    @Option(help: "How many of the slowest requests the waterfall shows.")
    var slowest: Int = 10

    @Flag(help: "Keep the values of Authorization, Cookie and Set-Cookie headers.")
    var showSecrets = false

    @Flag(help: "With --format json, print an array even for a single file (one shape for scripts).")
    var array = false

    func validate() throws {
        if slowest < 0 { throw ValidationError("--slowest must not be negative") }
        if array && format != .json { throw ValidationError("--array applies to --format json only") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        var options = HTTPCaptureOptions()
        options.redactSecrets = !showSecrets
        // `buildsAhead` stays off: rebuilding a HAR's transactions on a second thread took about a fifth off the wall
        // time of `--format json` but cost a third more CPU (transactions handed between threads), more than the
        // single thread's whole wall time once the rebuild got cheaper.
        let output = EnvelopePrinter(
            format: format.format,
            oneObject: InspectCommand.printsOneObject(paths: paths, array: array),
            sink: .console
        )
        output.begin()
        // One spool for every capture: each read empties it first.
        let spool = output.transactionSpool()
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        var failed = false
        arguments: for argument in paths {
            let inFolder = PathWalker.isFolder(argument)
            let inArchive = !inFolder && ArchiveScanner.isArchive(atPath: argument)
            var captures = 0
            for input in PathWalker.inputs(in: [argument]) {
                // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
                if Console.outputFailed { break arguments }
                for (inspection, stream) in read(
                    input,
                    inFolder: inFolder,
                    options: options,
                    spool: spool,
                    temporary: temporary
                ) {
                    captures += 1
                    if let failure = inspection.failure {
                        failed = true
                        Console.error(
                            ErrorLine.render(
                                path: inspection.file,
                                location: failure.location,
                                message: failure.message
                            )
                        )
                    }
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
                Console.error(ErrorLine.render(path: argument, location: nil, message: message))
            }
        }
        output.finish()
        if failed { throw ExitCode(1) }
    }

    /// Reads one input: its capture, or the captures inside it when it is a tar or tar.gz (a sysdiagnose); none for
    /// a file of a folder that is not a capture (a note says it was skipped).
    ///
    /// A file named on the command line is read whatever it is: the reader says why it is not a capture. For JSON
    /// output the transactions come in the stream, written one at a time (``EnvelopePrinter/print(_:transactions:)``).
    private func read(
        _ input: PathWalker.Input,
        inFolder: Bool,
        options: HTTPCaptureOptions,
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
            return archiveCaptures(file.display, shown: shown, options: options, temporary: temporary)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(at: file)
        } catch {
            return [(Self.failed(shown, error.message, code: error.code.rawValue, location: error.location), nil)]
        }
        if bytes.isEmpty { return [(Self.failed(shown, InputCheck.emptyFileMessage), nil)] }
        if inFolder && HTTPCaptureReader.recognise(bytes) == nil {
            Console.error(
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
    /// the same limits), each named `ARCHIVE!/member`; the archive's findings go to standard error.
    private func archiveCaptures(
        _ path: String,
        shown: String,
        options: HTTPCaptureOptions,
        temporary: TemporaryFolder
    ) -> [(Inspection, HTTPCaptureStream?)] {
        let family = ArchiveCaptureFamily(options: options, summaryOnly: format == .text)
        let scanner = ArchiveScanner(inspector: ReportInspector(families: [family]), temporary: temporary)
        var captures: [(Inspection, HTTPCaptureStream?)] = []
        let findings = scanner.scan(archive: path, shownAs: shown) { captures.append(($0, nil)) }
        for finding in findings {
            Console.error(
                ErrorLine.render(
                    path: shown,
                    location: finding.location,
                    message: finding.message,
                    severity: finding.severity.rawValue
                )
            )
        }
        return captures
    }

    /// The HTTP family with this run's options (`--show-secrets`, the text summary), for an archive's members.
    private struct ArchiveCaptureFamily: ReportFamily {
        let options: HTTPCaptureOptions
        let summaryOnly: Bool

        var name: String { "HTTP capture" }

        func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
            guard let kind = input.httpKind else { return nil }
            return HTTPCaptureFamily.inspect(
                bytes: input.bytes,
                kind: kind,
                path: input.path,
                options: options,
                summaryOnly: summaryOnly
            )
        }
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
        text += diagnosticsText(inspection.diagnostics)
        Console.text(text + "\n")
    }

    private func diagnosticsText(_ diagnostics: [Diagnostic]) -> String {
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
