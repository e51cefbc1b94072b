import APMInspectCore
import ArgumentParser
import ReportRendering
import ReportSources

/// `apm-inspect symbolicate REPORT... --dsym PATH [--dsym PATH...]`: each report with its app frames resolved, in its own layout.
struct SymbolicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Symbolicate crash reports with dSYMs: text stays text, a JSON .ips stays JSON.",
        discussion: """
            Each report's binary images are matched to the dSYMs by UUID (never by name). Text reports get their \
            frames rewritten as symbolicatecrash writes them (`0x… symbol + offset (file:line)`, inlined functions \
            on lines of their own marked [inlined]); a JSON .ips keeps its header line and every key but the \
            resolved frames' `symbol`, `symbolLocation`, `sourceFile`, `sourceLine` and `inline`. Frames that \
            already have a symbol are kept unless --force. Reports go to standard output (several: each after a \
            line `==> PATH <==`), or with -o into that folder under their own names; never beside the inputs. \
            --dsym takes .dSYM bundles, Mach-O files (thin or fat), folders (searched recursively) and zip \
            archives of dSYMs (App Store Connect's appDsyms.zip). docs/symbolication.md tells what is resolved.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "A JSON report symbolicated with the dSYMs of a folder (stays JSON)",
            "symbolicate Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips --dsym "
                + "Tests/SymbolicationTests/Fixtures"
        )
    ]

    @Argument(help: "Crash reports: text, .ips (- for standard input).", completion: .file())
    var paths: [String]

    @Option(
        name: .long,
        help: "A dSYM bundle, Mach-O file, folder or zip of dSYMs (repeatable: --dsym A --dsym B).",
        completion: .file()
    )
    var dsym: [String] = []

    @OptionGroup var symbolOptions: SymbolOptions

    @Flag(help: "Re-resolve frames that already have a symbol.")
    var force = false

    @Option(name: .shortAndLong, help: "Write the reports into this folder (made when missing).", completion: .file())
    var output: String?

    @Option(name: .shortAndLong, help: "text: each report in its own layout; json: the envelope with the model.")
    var format: DocumentFormat = .text

    func validate() throws {
        if dsym.isEmpty && symbolOptions.sources.isEmpty {
            throw ValidationError(
                "--dsym or --symbols is required (or \(SymbolSources.environmentVariable)): a dSYM, a Mach-O file, a folder or a zip"
            )
        }
        try PathWalker.validate(paths)
    }

    func run() throws {
        let made = ReportSymbolication.make(
            dsymPaths: dsym,
            symbols: symbolOptions.sources,
            force: force,
            sink: .console
        )
        guard let symbolication = made else { throw ExitCode(1) }
        let run = SymbolicationRun(
            symbolication: symbolication,
            stdoutIsTerminal: Console.stdoutIsTerminal,
            sink: .console
        )
        let failed: Bool
        if format == .json {
            if let output, let problem = SymbolicationRun.prepareFolder(output, inputs: paths) {
                Console.error(ErrorLine.render(path: output, location: nil, message: problem))
                throw ExitCode(1)
            }
            let inputs = PathWalker.inputs(in: paths)
            let oneObject = InspectCommand.printsOneObject(paths: paths, array: false) && inputs.count == 1
            let temporary = try TemporaryFolder()
            defer { temporary.remove() }
            failed = run.printEnvelopes(inputs, oneObject: oneObject, temporary: temporary)
        } else {
            // A report in the folder that is an input under another name (a link, a hard link) is never overwritten.
            failed = run.run(
                paths,
                output: output,
                protecting: OutputFile.identities(of: paths + dsym + symbolOptions.sources.local)
            )
        }
        if failed { throw ExitCode(1) }
    }
}
