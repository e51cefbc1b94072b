import APMInspectCore
import ArgumentParser
import CrashReportParsing
import Foundation

/// `apm-inspect translate FILE.ips`: the classic Apple text report, as Apple's own translation writes it.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a JSON (bug_type 309) crash report into Apple's classic text report.",
        discussion: """
            Writes what Apple's OSAnalytics translation (Console, Xcode) writes: the iOS layout (Report Version \
            104) for iOS, iPadOS, tvOS and watchOS reports, the macOS layout (Report Version 12) for macOS ones. \
            The text goes to standard output unless -o names a file. docs/crash-translation.md lists the known \
            differences from Apple's output.
            """
    )

    @Argument(help: "A bug_type 309 .ips crash report (- for standard input).", completion: .file())
    var path: String

    @Option(name: .shortAndLong, help: "Write the text to this file instead of standard output.", completion: .file())
    var output: String?

    @Option(help: "Force a layout: ios or macos (default: from the report's platform).")
    var layout: String?

    func validate() throws {
        try PathWalker.validate([path])
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
        let bytes: [UInt8]
        let openable = PathWalker.openable(path)
        if let problem = InputCheck.problem(atPath: openable) ?? InputCheck.archiveHint(atPath: openable) {
            Console.error(ErrorLine.render(path: path, location: nil, message: problem))
            throw ExitCode(1)
        }
        do {
            bytes = try FileReading.contents(atPath: openable)
        } catch {
            Console.error(ErrorLine.render(path: path, location: error.location, message: error.message))
            throw ExitCode(1)
        }
        if let problem = Self.notTranslatable(bytes) {
            Console.error(ErrorLine.render(path: path, location: nil, message: problem))
            throw ExitCode(1)
        }
        let text: String
        do {
            let translation = try CrashTextTranslator(layout: layout.flatMap(Self.layout(named:)))
                .translation(of: bytes)
            text = translation.text
            // The text of a damaged report is still written; what was damaged is said on standard error.
            for diagnostic in translation.diagnostics where diagnostic.severity != .note {
                Console.error(
                    ErrorLine.render(
                        path: path,
                        location: diagnostic.location,
                        message: diagnostic.message,
                        severity: diagnostic.severity.rawValue
                    )
                )
            }
        } catch {
            Console.error(ErrorLine.render(path: path, location: error.location, message: error.message))
            throw ExitCode(1)
        }
        guard let output else {
            // The text is data meant for a file; shown on a terminal, the report's own bytes are escaped.
            if Console.stdoutIsTerminal { Console.text(text) } else { Console.out(text) }
            return
        }
        if let failure = OutputFile.write(text, toPath: output) {
            Console.error(ErrorLine.render(path: output, location: nil, message: "cannot write the report: \(failure)"))
            throw ExitCode(1)
        }
    }
}
