import APMInspectCore
import ArgumentParser
import Dispatch
import Foundation
import MCPServing
import ReportRendering
import ReportSources

/// `apm-inspect mcp`: the commands as Model Context Protocol tools for an agent, over standard input and output.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve inspect, symbolicate, memory-limits, energy, http and report as MCP tools over stdio.",
        discussion: """
            A Model Context Protocol server for agents and AI clients: newline-delimited JSON-RPC 2.0 on standard \
            input and output, logs on standard error. Each tool returns the JSON the command prints with --format \
            json. Only files in the current folder, or in a folder given with --root, can be read: every path is \
            resolved (links, ..) before it is checked, and a folder's files are checked one by one. Nothing is \
            written but temporary files, removed after each call; a result larger than 16 MiB is refused with a \
            hint to run the command instead. Register it with a client as the command apm-inspect with the \
            arguments mcp --root FOLDER (docs/mcp.md). With --symbols (or APM_INSPECT_SYMBOLS), inspect, \
            symbolicate and report name frames from those sources, which the client can neither change nor see; \
            symbolicate then needs no dsym. --list-tools prints the tools and their input schemas and exits.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("The tools and their input schemas, as a client lists them", "mcp --list-tools --root Corpus")
    ]

    @Option(
        help: ArgumentHelp(
            "A folder whose files the tools may read, besides the current folder (repeatable: one folder each).",
            valueName: "folder"
        ),
        completion: .directory
    )
    var root: [String] = []

    @Flag(help: "Print the tools and their input schemas as JSON, then exit.")
    var listTools = false

    @OptionGroup var symbolOptions: SymbolOptions

    /// The current folder and the `--root` folders, resolved; a usage error when one is not a folder.
    func allowedRoots() throws -> AllowedRoots {
        do {
            return try AllowedRoots(folders: [FileManager.default.currentDirectoryPath] + root)
        } catch {
            throw ValidationError("--root: \(error.message)")
        }
    }

    func validate() throws {
        _ = try allowedRoots()
    }

    func run() throws {
        let roots = try allowedRoots()
        var symbols = symbolOptions.sources
        // Said once here rather than in every call's result: the client cannot act on the server's options.
        for (source, reason) in symbols.rejected {
            Console.error(
                "apm-inspect: warning: --symbols \(TerminalText.escaped(source)): \(reason); the source is skipped"
            )
        }
        symbols.rejected = []
        let runner = ToolRunner(roots: roots, jobs: ProcessInfoShim.activeProcessorCount, symbols: symbols)
        if listTools {
            Console.out(try MCPToolServer.toolListJSON(symbolSources: runner.hasSymbolSources))
            return
        }
        if roots.allowsEverything {
            Console.error(
                "apm-inspect: warning: the allowed folders include /, so a client may read every file you can; "
                    + "start the server in a folder of reports or give --root"
            )
        }
        let server = MCPToolServer(
            runner: runner,
            version: APMInspect.configuration.version
        )
        // The command is synchronous, the SDK is not: the main thread waits while the server runs on the
        // cooperative pool.
        let finished = DispatchSemaphore(value: 0)
        Task {
            await server.serveStandardStreams()
            finished.signal()
        }
        finished.wait()
    }
}
