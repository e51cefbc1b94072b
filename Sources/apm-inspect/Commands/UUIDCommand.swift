import ArgumentParser
import ReportRendering
import ReportSources

/// `apm-inspect uuid PATH...`: `dwarfdump --uuid` on Linux.
struct UUIDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uuid",
        abstract: "List the UUID and architecture of every Mach-O slice in dSYMs, binaries and zips of dSYMs.",
        discussion: """
            Prints `UUID: <UUID> (<arch>) <path>` for each slice, as `dwarfdump --uuid` does: one line per \
            architecture of a fat file, the DWARF file inside a .dSYM bundle, and `archive.zip:member` for a dSYM \
            inside a zip (App Store Connect's appDsyms.zip is read in memory, never extracted). Folders are searched \
            as --dsym searches them, by content, so a UUID listed here is one --dsym would find; every copy is \
            listed, duplicates too. Exits 1 when a path cannot be read or holds no Mach-O slice, after listing the \
            others.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("The two slices of a fat dSYM", "uuid Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM")
    ]

    @Option(name: .shortAndLong, help: "Output format: text (as dwarfdump --uuid) or json.")
    var format: UUIDFormat = .text

    @Argument(help: "dSYM bundles, Mach-O files, zips of dSYMs, or folders holding them (- for standard input).")
    var paths: [String]

    enum UUIDFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    func validate() throws {
        try PathWalker.validate(paths)
    }

    func run() throws {
        let run = UUIDRun(paths: paths, json: format == .json, sink: .console)
        if !run.run() { throw ExitCode(1) }
    }
}
