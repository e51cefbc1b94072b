import ArgumentParser

/// The `apm-inspect` command: reads iOS and macOS diagnostic files on any platform.
@main
struct APMInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apm-inspect",
        abstract: "Read iOS and macOS diagnostic files: JetsamEvent OOM reports, crash reports and more.",
        discussion: """
            Files are recognised by their content, never by their name. Exit status: 0 when every input was read \
            (diagnostics allowed), 1 when an input could not be read or parsed or the output could not be \
            written, 2 for usage errors.
            """,
        version: "0.1.0",
        subcommands: [
            InspectCommand.self, MemoryLimitsCommand.self, HTTPCommand.self, EnergyCommand.self, TranslateCommand.self,
            ScanCommand.self, FuzzCommand.self,
        ]
    )

    /// Parses and runs a subcommand as ArgumentParser does, then fails when standard output could not be
    /// written: output lost to a full disk or a closed descriptor is an error (exit 1), whatever the command did.
    ///
    /// The interrupt handler that removes temporary files is installed before any command runs.
    static func main() {
        TemporaryFolder.installInterruptCleanup()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        var failure: (any Error)?
        do {
            try command.run()
        } catch {
            failure = error
        }
        if let message = Console.outputFailureMessage {
            Console.error("error: \(message)")
            exit(withError: ExitCode(1))
        }
        if let failure { exit(withError: failure) }
    }
}
