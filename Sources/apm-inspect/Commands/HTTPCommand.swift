import APMInspectCore
import ArgumentParser
import HTTPCaptureParsing

/// `apm-inspect http FILE...`: request timings and network health from HAR, Charles and pcap/pcapng captures.
struct HTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Request timings and network health from HAR, Charles sessions and pcap/pcapng captures.",
        discussion: """
            Reads HAR 1.1/1.2 (also .zhar and .har.gz), Charles .chlsj and .chlsx, and pcap/pcapng. Prints error \
            rates, per-host percentiles of total, DNS, connect, TLS, time to first byte and receive, bytes by host \
            and type, and a waterfall of the slowest requests. --format json prints the envelope {file, kind, \
            diagnostics, report} with every transaction: one object for one file, an array for several (--array: an array \
            always). - reads standard input. Authorization, Cookie and Set-Cookie values are redacted \
            unless --show-secrets is given. Metric definitions: docs/http-captures.md.
            """
    )

    @Argument(help: "Capture files (- for standard input).", completion: .file())
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
        var failed = false
        var documents: [Inspection] = []
        var options = HTTPCaptureOptions()
        options.redactSecrets = !showSecrets
        let inspector = FileInspector()
        for path in paths {
            // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
            if Console.outputFailed { break }
            let inspection: Inspection
            let openable = PathWalker.openable(path)
            if let problem = InputCheck.problem(atPath: openable) ?? InputCheck.archiveHint(atPath: openable) {
                inspection = Inspection(
                    file: path,
                    kind: .unknown,
                    diagnostics: [],
                    report: nil,
                    failure: Inspection.Failure(code: "unreadable", message: problem, location: nil)
                )
            } else {
                do {
                    let bytes = try FileReading.contents(atPath: PathWalker.openable(path))
                    inspection = inspector.inspectHTTP(
                        bytes: bytes,
                        kind: nil,
                        path: path,
                        options: options,
                        summaryOnly: format == .text
                    )
                } catch {
                    inspection = Inspection(
                        file: path,
                        kind: .unknown,
                        diagnostics: [],
                        report: nil,
                        failure: Inspection.Failure(
                            code: error.code.rawValue,
                            message: error.message,
                            location: error.location
                        )
                    )
                }
            }
            if let failure = inspection.failure {
                failed = true
                Console.error(ErrorLine.render(path: path, location: failure.location, message: failure.message))
            }
            switch format {
            case .ndjson: if JSONOutput.printEnvelope(inspection, pretty: false) { failed = true }
            case .json: documents.append(inspection)
            default:
                if case .http(let capture) = inspection.report {
                    var text = HTTPRenderer.render(
                        capture,
                        file: TerminalText.escaped(path),
                        title: InspectionRenderer.title(for: inspection.kind),
                        detailed: true,
                        slowest: slowest
                    )
                    text += diagnosticsText(inspection.diagnostics)
                    Console.text(text + "\n")
                }
            }
        }
        if format == .json {
            if JSONOutput.printEnvelopes(documents, format: .json, single: !array) { failed = true }
        }
        if failed { throw ExitCode(1) }
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
