import APMInspectCore
import ArgumentParser
import ReportRendering
import ReportSources

/// `apm-inspect anonymize INPUT... -o OUT`: copies of reports that are safe to share.
struct AnonymizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anonymize",
        abstract: "Copy reports with device, user, install and network identifiers replaced.",
        discussion: """
            Replaces CrashReporter keys, incident identifiers, device names and serials, user names in paths, \
            app container UUIDs in paths and, in HAR and Charles JSON captures, IP addresses, cookies and \
            Authorization headers, each value by the same stand-in in every file of the run. Binary image UUIDs \
            are kept. -o is a file for one input, a folder (made when missing) for several, a folder or an \
            archive (each member its own file); it is never an input nor inside or beside one. Each copy is read \
            again and written only when it is the same kind of report with the same crash signature. Packet \
            captures, PowerLog databases and Charles XML are refused. docs/anonymize.md says what is replaced.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "One crash report, stand-ins repeatable with a salt",
            "anonymize Corpus/crash/ios17.2.1_309_*.ips --salt s1 -o /tmp/anonymized.ips"
        ),
        HelpExample(
            "HAR captures into a folder, the summary as JSON",
            "anonymize Corpus/http/firefox_*.har Corpus/http/safari_*.har -o /tmp/anonymized --format json"
        ),
    ]

    @Argument(
        help: "Reports, folders of reports, tar, tar.gz or zip archives (- for standard input).",
        completion: .file()
    )
    var paths: [String]

    @Option(
        name: .shortAndLong,
        help: "The copy (one input) or the folder of copies (several inputs, a folder or an archive).",
        completion: .file()
    )
    var output: String

    @Option(help: "Derive the stand-ins from this text, so runs with it agree (random when not given).")
    var salt: String?

    @Option(name: .shortAndLong, help: "Format of the summary.")
    var format: DocumentFormat = .text

    func validate() throws {
        try PathWalker.validate(paths)
        if salt?.isEmpty == true { throw ValidationError("--salt must not be empty") }
    }

    func run() throws {
        // The inputs are evidence: an output that is one of them, inside or beside one is refused before any work.
        let inputs = OutputFile.identities(of: paths)
        if let problem = AnonymizationRun.outputProblem(output, inputs: paths) {
            Console.error("apm-inspect: error: -o \(TerminalText.escaped(output)): \(problem)")
            throw ExitCode(APMInspect.usageStatus)
        }
        if paths != [PathWalker.standardInputArgument], !AnonymizationRun.writesFolder(paths, standardInput: nil) {
            try OutputFile.refuseUnusable(output, option: "-o", inputs: inputs)
        }
        let run = AnonymizationRun(salt: salt.map { Array($0.utf8) }, json: format == .json, sink: .console)
        if run.run(paths, output: output, protecting: inputs) { throw ExitCode(1) }
    }
}
