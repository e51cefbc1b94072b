import Foundation
import Testing

@testable import apm_inspect

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 19: each command's help ends with EXAMPLES, and every example runs as shown, from the repository root on
/// its bundled files, with exit status 0 and output; the help shows each one whole, in lines that the help's
/// 80-column wrapping leaves alone.
@Suite("help examples")
struct HelpExamplesTests {
    /// Every command's name (nil for the root command) and its examples.
    static let commands: [(name: String?, examples: [HelpExample])] = [
        (nil, APMInspect.examples),
        ("inspect", InspectCommand.examples),
        ("memory-limits", MemoryLimitsCommand.examples),
        ("http", HTTPCommand.examples),
        ("energy", EnergyCommand.examples),
        ("translate", TranslateCommand.examples),
        ("scan", ScanCommand.examples),
        ("report", ReportCommand.examples),
        ("symbolicate", SymbolicateCommand.examples),
        ("atos", AtosCommand.examples),
        ("uuid", UUIDCommand.examples),
        ("demangle", DemangleCommand.examples),
        ("fuzz", FuzzCommand.examples),
        ("mcp", MCPCommand.examples),
        ("anonymize", AnonymizeCommand.examples),
    ]

    /// Every subcommand is listed above, so none is left without examples.
    @Test func everyCommandHasExamples() {
        let listed = Set(Self.commands.compactMap(\.name))
        let subcommands = Set(APMInspect.configuration.subcommands.map { $0._commandName })
        #expect(listed == subcommands)
        for command in Self.commands { #expect(!command.examples.isEmpty, "\(command.name ?? "apm-inspect")") }
    }

    /// `argument` as a shell expands it in the repository root: a glob must match exactly one path.
    private func expanded(_ argument: String) throws -> String {
        guard argument.contains("*") else { return argument }
        var matches = glob_t()
        defer { globfree(&matches) }
        let pattern = BuiltCommandTests.root.appendingPathComponent(argument).path
        #expect(glob(pattern, 0, nil, &matches) == 0, "\(argument) matches nothing")
        let count = Int(matches.gl_pathc)
        #expect(count == 1, "\(argument) matches \(count) paths")
        let first = try #require(matches.gl_pathv?[0].map { String(cString: $0) })
        return String(first.dropFirst(BuiltCommandTests.root.path.count + 1))
    }

    @Test(arguments: commands.flatMap { command in command.examples.map { (command.name, $0) } })
    func exampleRunsAsShown(command: String?, example: HelpExample) throws {
        // Each example belongs to its own command (the root's may name any).
        if let command { #expect(example.arguments.first == command) }
        // An output an example names under /tmp is written to a private folder instead, removed afterwards: two
        // runs of the suite never share a file, and nothing is left behind.
        let scratch = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let arguments = try example.arguments.map(expanded).map { argument in
            argument.hasPrefix("/tmp/") ? scratch.path + "/" + argument.dropFirst(5) : argument
        }
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), arguments)
        #expect(run.status == 0, "\(example.commandLine): \(run.stderr)")
        #expect(!run.stdout.isEmpty, "\(example.commandLine) printed nothing")
    }

    @Test(arguments: commands.map(\.name))
    func helpShowsEveryExampleWhole(command: String?) throws {
        let examples = try #require(Self.commands.first { $0.name == command }?.examples)
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), (command.map { [$0] } ?? []) + ["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("EXAMPLES"))
        for example in examples {
            #expect(run.stdout.contains("  \(example.what):\n"), "\(example.what) is wrapped or missing")
            for line in example.shellLines {
                #expect(run.stdout.contains(line + "\n"), "\(line) is wrapped or missing")
            }
        }
    }

    @Test func longCommandsAreContinuedWithinTheWidth() {
        let example = HelpExample(
            "A long one",
            "symbolicate Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips --dsym "
                + "Tests/SymbolicationTests/Fixtures"
        )
        let lines = example.shellLines
        #expect(lines.count == 3)
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" \\") })
        #expect(lines.enumerated().allSatisfy { ($0.offset == 0 ? 4 : 6) + $0.element.count <= HelpExample.lineWidth })
        let joined = lines.map { $0.hasSuffix(" \\") ? String($0.dropLast(2)) : $0 }.joined(separator: " ")
        #expect(joined == example.commandLine)
    }
}
