import APMInspectCore
import ArgumentParser
import CrashReportParsing
import ReportInspection
import ReportRendering
import ReportSources
import Symbolication

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `apm-inspect symbolicate REPORT... --dsym PATH...`: each report with its app frames resolved, in its own layout.
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
        parsing: .upToNextOption,
        help: "dSYM bundles, Mach-O files, folders or zips of dSYMs (repeatable).",
        completion: .file()
    )
    var dsym: [String] = []

    @Flag(help: "Re-resolve frames that already have a symbol.")
    var force = false

    @Option(name: .shortAndLong, help: "Write the reports into this folder (made when missing).", completion: .file())
    var output: String?

    @Option(name: .shortAndLong, help: "text: each report in its own layout; json: the envelope with the model.")
    var format: DocumentFormat = .text

    func validate() throws {
        if dsym.isEmpty { throw ValidationError("--dsym is required: a dSYM, a Mach-O file, a folder or a zip") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        guard let symbolication = ReportSymbolication.make(dsymPaths: dsym, force: force) else { throw ExitCode(1) }
        if let output, let problem = Self.prepareFolder(output, inputs: paths) {
            Console.error(ErrorLine.render(path: output, location: nil, message: problem))
            throw ExitCode(1)
        }
        var failed = false
        var names = Set<String>()
        // A report in the folder that is an input under another name (a link, a hard link) is never overwritten.
        let inputs = OutputFile.identities(of: paths + dsym)
        if format == .json {
            failed = printEnvelopes(symbolication)
        } else {
            for (index, path) in paths.enumerated() {
                if Console.outputFailed { break }
                guard let bytes = Self.read(path) else {
                    failed = true
                    continue
                }
                let rewritten: [UInt8]
                do {
                    let result = try symbolication.rewrite(bytes)
                    rewritten = result.bytes
                    Console.error(result.diagnostics, about: path)
                } catch {
                    Console.error(ErrorLine.render(path: path, location: error.location, message: error.message))
                    failed = true
                    continue
                }
                let text = String(decoding: rewritten, as: UTF8.self)
                if let output {
                    let target = output + "/" + Self.outputName(for: path, taken: &names)
                    if let failure = OutputFile.write(text, toPath: target, protecting: inputs) {
                        Console.error(
                            ErrorLine.render(
                                path: target,
                                location: nil,
                                message: "cannot write the report: \(failure)"
                            )
                        )
                        failed = true
                    }
                } else {
                    if paths.count > 1 {
                        Console.out((index > 0 ? "\n" : "") + "==> \(TerminalText.escaped(path)) <==\n")
                    }
                    // The report is data meant for a file; shown on a terminal, its own bytes are escaped.
                    if Console.stdoutIsTerminal { Console.text(text) } else { Console.out(text) }
                }
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// `--format json`: the envelopes `inspect` prints, with the reports symbolicated; true when one failed.
    private func printEnvelopes(_ symbolication: ReportSymbolication) -> Bool {
        var inspector = ReportInspector()
        inspector.symbolicator = symbolication.symbolicator
        let inputs = PathWalker.inputs(in: paths)
        let oneObject = InspectCommand.printsOneObject(paths: paths, array: false) && inputs.count == 1
        let printer = EnvelopePrinter(format: .json, oneObject: oneObject, sink: .console)
        var failed = false
        printer.begin()
        for input in inputs {
            let inspection = inspector.inspect(input)
            if let failure = inspection.failure {
                failed = true
                Console.error(
                    ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
                )
            }
            if printer.print(inspection) { failed = true }
        }
        printer.finish()
        return failed
    }

    /// The file's bytes, or nil after saying why there are none.
    private static func read(_ path: String) -> [UInt8]? {
        let openable = PathWalker.openable(path)
        if let problem = InputCheck.problem(atPath: openable) {
            Console.error(ErrorLine.render(path: path, location: nil, message: problem))
            return nil
        }
        do {
            return try FileReading.contents(atPath: openable)
        } catch {
            Console.error(ErrorLine.render(path: path, location: error.location, message: error.message))
            return nil
        }
    }

    /// Makes the output folder when it is missing; why it cannot be used otherwise, including when it is the
    /// folder of an input (the reports would land beside the user's files, or over them).
    static func prepareFolder(_ folder: String, inputs: [String]) -> String? {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { return "-o names a file; it must be a folder" }
        } else if mkdir(folder, 0o755) != 0 {
            return "cannot make the folder: \(Console.describe(errno: errno))"
        }
        var made = stat()
        guard stat(folder, &made) == 0 else { return "cannot use the folder: \(Console.describe(errno: errno))" }
        for input in inputs where input != PathWalker.standardInputArgument {
            let parent = input.contains("/") ? String(input[..<(input.lastIndex(of: "/") ?? input.endIndex)]) : "."
            var parentInfo = stat()
            let parentPath = parent.isEmpty ? "/" : parent
            if stat(parentPath, &parentInfo) == 0, parentInfo.st_dev == made.st_dev, parentInfo.st_ino == made.st_ino {
                return
                    "-o is the folder of the input \(input): symbolicated reports are never written beside the inputs"
            }
        }
        return nil
    }

    /// The input's own name (`stdin` for standard input), numbered when two inputs share it; never a path.
    static func outputName(for path: String, taken: inout Set<String>) -> String {
        var base = path == PathWalker.standardInputArgument ? "stdin" : String(path.split(separator: "/").last ?? "")
        base = String(base.map { character in (character.asciiValue ?? 0x20) < 0x20 ? "_" : character })
        if base.isEmpty || base.hasPrefix(".") { base = "report" + base }
        var name = base
        var number = 2
        while taken.contains(name) {
            let dot = base.lastIndex(of: ".")
            name = dot.map { "\(base[..<$0])-\(number)\(base[$0...])" } ?? "\(base)-\(number)"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
