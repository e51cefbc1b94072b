import APMInspectCore
import ArgumentParser
import Foundation
import ReportRendering
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `apm-inspect` command: reads iOS and macOS diagnostic files on any platform.
@main
struct APMInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apm-inspect",
        abstract: "Read iOS and macOS diagnostic files: JetsamEvent OOM reports, crash reports and more.",
        discussion: """
            Files are recognised by their content, never by their name; `-` reads standard input. Exit status: 0 \
            when every input was read (diagnostics allowed), 1 when an input could not be read or parsed or the \
            output could not be written, 2 for usage errors.
            """ + HelpExample.section(examples),
        version: "0.1.0",
        subcommands: [
            InspectCommand.self, MemoryLimitsCommand.self, HTTPCommand.self, EnergyCommand.self, TranslateCommand.self,
            ScanCommand.self, ReportCommand.self, SymbolicateCommand.self, AtosCommand.self, UUIDCommand.self,
            DemangleCommand.self, FuzzCommand.self, MCPCommand.self, AnonymizeCommand.self,
        ]
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "What a file is and what it says",
            "inspect Corpus/crash/ios14.4_*.crash"
        ),
        HelpExample("Per-device memory limits from JetsamEvents", "memory-limits Corpus/jetsam"),
        HelpExample("Everything in a folder or sysdiagnose", "scan Corpus"),
    ]

    /// The exit status of a usage error, as the README and `--help` promise (ArgumentParser's own is 64).
    static let usageStatus: Int32 = 2

    /// Parses and runs a subcommand as ArgumentParser does, with the exit statuses the README documents.
    ///
    /// A usage error exits 2. Output lost to a full disk or a closed descriptor is an error (exit 1), whatever
    /// the command did; a reader that went away (`| head`) ends the run quietly, as it ends `cat`: the command
    /// stops early, removes its temporary files, then dies by SIGPIPE. SIGPIPE is ignored until then, so that
    /// the command learns of it as EPIPE instead of being killed before any cleanup. The interrupt handler that
    /// removes temporary files is installed before any command runs.
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        AllocatorSettings.apply()
        TemporaryFolder.installInterruptCleanup()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            finish(failure: error)
        }
        // `--wide` (a nil limit) must not fall back to COLUMNS: only a command without tables takes it as is.
        let columns = TableWidth.columns(environment: ProcessInfo.processInfo.environment["COLUMNS"])
        if let printer = command as? any PrintsTables {
            TableWidth.shared.limit = printer.tableOptions.limit
            TableWidth.shared.fitsViews = true
        } else {
            TableWidth.shared.limit = columns
            TableWidth.shared.fitsViews = false
        }
        var failure: (any Error)?
        do {
            try command.run()
        } catch {
            failure = error
        }
        if Console.readerWentAway { endByBrokenPipe() }
        if let message = Console.outputFailureMessage {
            Console.error("error: \(message)")
            terminate(1)
        }
        finish(failure: failure)
    }

    /// The exit status for `error`: ArgumentParser's, but 2 for a usage error.
    static func exitStatus(for error: any Error) -> Int32 {
        let code = exitCode(for: error)
        return code == .validationFailure ? usageStatus : code.rawValue
    }

    /// Prints what ArgumentParser would for `failure` (help on standard output, errors on standard error) and
    /// exits with ``exitStatus(for:)``.
    private static func finish(failure: (any Error)?) -> Never {
        guard let failure else { terminate(0) }
        let status = exitStatus(for: failure)
        // The message can quote an argument the user typed: escaped, its own line breaks kept.
        let text = TerminalText.escapedKeepingLayout(fullMessage(for: failure))
        if !text.isEmpty {
            if status == 0 {
                Console.out(text + "\n")
                if Console.readerWentAway { endByBrokenPipe() }
            } else {
                Console.errorRaw(text + "\n")
            }
        }
        terminate(status)
    }

    /// Removes what is left of the temporary files, then ends by SIGPIPE as `cat` does (status 141 in a shell).
    private static func endByBrokenPipe() -> Never {
        TemporaryFiles.removeAll()
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        terminate(128 + SIGPIPE)
    }
}

/// `exit(3)`, named apart from ArgumentParser's `exit(withError:)` that a command type also sees.
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
