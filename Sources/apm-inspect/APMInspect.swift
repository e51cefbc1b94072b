import ArgumentParser

/// The `apm-inspect` command: reads iOS and macOS diagnostic files on any platform.
@main
struct APMInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apm-inspect",
        abstract: "Read iOS and macOS diagnostic files: JetsamEvent OOM reports, crash reports and more.",
        discussion: """
            Files are recognised by their content, never by their name. Exit status: 0 when every input was read \
            (diagnostics allowed), 1 when an input could not be read or parsed, 2 for usage errors.
            """,
        version: "0.1.0",
        subcommands: [
            InspectCommand.self, MemoryLimitsCommand.self, HTTPCommand.self, EnergyCommand.self, TranslateCommand.self,
            ScanCommand.self,
        ]
    )

    /// Installs the interrupt handler that removes temporary files before any command runs.
    static func main() {
        TemporaryFolder.installInterruptCleanup()
        main(nil)
    }
}
