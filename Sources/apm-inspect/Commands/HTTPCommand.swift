import APMInspectCore
import ArgumentParser
import HTTPCaptureParsing
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect http FILE...`: request timings and network health from HAR, Charles and pcap/pcapng captures.
struct HTTPCommand: ParsableCommand, PrintsTables {
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

    @OptionGroup var tableOptions: TableOptions

    func validate() throws {
        if slowest < 0 { throw ValidationError("--slowest must not be negative") }
        if array && format != .json { throw ValidationError("--array applies to --format json only") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        var options = HTTPCaptureOptions()
        options.redactSecrets = !showSecrets
        let run = HTTPCaptureRun(format: format.format, options: options, slowest: slowest, sink: .console)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let oneObject = InspectCommand.printsOneObject(paths: paths, array: array)
        if run.run(paths, oneObject: oneObject, temporary: temporary) { throw ExitCode(1) }
    }
}
