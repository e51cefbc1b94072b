import ArgumentParser
import Foundation
import ReportSources
import Testing

@testable import apm_inspect

/// The promises the README and `--help` make, checked on the command types.
@Suite("Command-line contract")
struct CommandLineContractTests {
    /// The status `apm-inspect ARGS` exits with when parsing fails, 0 when it parses.
    private static func parseStatus(_ arguments: [String]) -> Int32 {
        do {
            _ = try APMInspect.parseAsRoot(arguments)
            return 0
        } catch {
            return APMInspect.exitStatus(for: error)
        }
    }

    @Test(
        "every class of usage error exits 2, not ArgumentParser's 64",
        arguments: [
            ["inspect", "--no-such-option", "a.ips"], ["inspect", "--format", "csv", "a.ips"],
            ["energy", "--format", "ndjson", "a.PLSQL"], ["inspect"], ["translate"], ["inspect", "--jobs", "0", "a"],
            ["scan", "--jobs", "0", "a"], ["memory-limits", "--jobs", "-3", "a"], ["no-such-command"],
            ["inspect", "-", "-"], ["inspect", "--array", "a.ips"], ["http", "--array", "--format", "ndjson", "a.har"],
        ]
    )
    func usageErrorsExit2(arguments: [String]) {
        #expect(Self.parseStatus(arguments) == 2)
    }

    @Test("help and valid command lines are not usage errors")
    func validCommandLines() {
        #expect(Self.parseStatus(["inspect", "--help"]) == 0)
        #expect(Self.parseStatus(["inspect", "--format", "json", "--array", "a.ips"]) == 0)
        #expect(Self.parseStatus(["memory-limits", "--format", "markdown", "--jobs", "2", "a"]) == 0)
        #expect(Self.parseStatus(["energy", "--format", "json", "-"]) == 0)
        // A command's own failure keeps its status: 1 is "an input could not be read", never a usage error.
        #expect(APMInspect.exitStatus(for: ExitCode(1)) == 1)
    }

    @Test("each command's help offers only the formats it produces")
    func helpListsOwnFormats() {
        #expect(HTTPCommand.helpMessage().contains("values: text, json, ndjson;"))
        // inspect and scan also print the backends' native events (docs/backends.md).
        // inspect also prints folded call stacks; scan, an inventory, does not.
        #expect(
            InspectCommand.helpMessage(columns: 200).contains(
                "values: text, json, ndjson, sentry, sentry-envelope, otel, folded;"
            )
        )
        #expect(
            ScanCommand.helpMessage(columns: 200).contains("values: text, json, ndjson, sentry, sentry-envelope, otel;")
        )
        for help in [InspectCommand.helpMessage(), HTTPCommand.helpMessage(), ScanCommand.helpMessage()] {
            #expect(!help.contains("csv") && !help.contains("markdown"))
        }
        let energy = EnergyCommand.helpMessage(columns: 200)
        #expect(energy.contains("values: text, json;"))
        #expect(!energy.contains("ndjson"))
        #expect(MemoryLimitsCommand.helpMessage(columns: 200).contains("values: text, json, ndjson, csv, markdown;"))
    }

    @Test("shell completion offers only each command's formats")
    func completionListsOwnFormats() throws {
        let script = APMInspect.completionScript(for: .zsh)
        let expected = [
            "inspect": "('text' 'json' 'ndjson' 'sentry' 'sentry-envelope' 'otel' 'folded')",
            "http": "('text' 'json' 'ndjson')",
            "scan": "('text' 'json' 'ndjson' 'sentry' 'sentry-envelope' 'otel')",
            "energy": "('text' 'json')", "memory-limits": "('text' 'json' 'ndjson' 'csv' 'markdown')",
        ]
        for (command, formats) in expected {
            let start = try #require(script.range(of: "\n_apm-inspect_\(command)() {"))
            let body = script[start.upperBound...].prefix { $0 != "}" }
            #expect(body.contains("local -ar ___format=\(formats)"), "\(command)")
        }
    }

    @Test("--jobs states its default once, in words that hold on every machine")
    func jobsDefaultOnce() {
        for help in [
            InspectCommand.helpMessage(columns: 200), ScanCommand.helpMessage(columns: 200),
            MemoryLimitsCommand.helpMessage(columns: 200),
        ] {
            let line = help.split(separator: "\n").first { $0.hasPrefix("  -j, --jobs <jobs>") } ?? ""
            #expect(line.components(separatedBy: "default").count == 2, "\(line)")
            #expect(line.contains("(default: the number of cores)"))
        }
    }

    @Test("--format json is one object only for a single path that is not a folder")
    func jsonShapeFollowsTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("only.ips").path
        try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
        #expect(InspectCommand.printsOneObject(paths: [file], array: false))
        #expect(InspectCommand.printsOneObject(paths: ["-"], array: false))
        #expect(InspectCommand.printsOneObject(paths: [folder.path + "/missing"], array: false))
        // A folder is an array whatever it holds (here one file), so a jq script does not depend on its content.
        #expect(!InspectCommand.printsOneObject(paths: [folder.path], array: false))
        #expect(!InspectCommand.printsOneObject(paths: [file, file], array: false))
        #expect(!InspectCommand.printsOneObject(paths: [file], array: true))
    }
}

/// The reorder buffer behind `inspect`'s streamed output.
@Suite("ParallelMap.forEachInOrder")
struct OrderedStreamingTests {
    /// Counts what workers started and what was consumed, to check the bound on what waits in between.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var started = 0
        private(set) var consumed: [Int] = []
        private(set) var mostInFlight = 0

        func start() {
            lock.withLock {
                started += 1
                mostInFlight = max(mostInFlight, started - consumed.count)
            }
        }

        func consume(_ value: Int) {
            lock.withLock { consumed.append(value) }
        }
    }

    @Test("results come out in input order while inputs finish out of order", arguments: [1, 2, 4, 7])
    func inputOrder(jobs: Int) {
        let tally = Tally()
        let count = 200
        let window = 2 * jobs
        let consumed = ParallelMap.forEachInOrder(
            count: count,
            jobs: jobs,
            window: window,
            transform: { index in
                tally.start()
                // Later inputs of each group finish first.
                usleep(UInt32((7 - index % 7) * 150))
                return index
            },
            consume: { value in
                tally.consume(value)
                return true
            }
        )
        #expect(consumed == count)
        #expect(tally.consumed == Array(0..<count))
        // Never more inputs started than the window allows past the last one consumed.
        #expect(tally.mostInFlight <= window)
    }

    @Test("a consumer that stops ends the run: no input past the window is started")
    func stopsEarly() {
        let tally = Tally()
        let consumed = ParallelMap.forEachInOrder(
            count: 10_000,
            jobs: 3,
            window: 4,
            transform: { index in
                tally.start()
                return index
            },
            consume: { value in
                tally.consume(value)
                return value < 9
            }
        )
        #expect(consumed == 10)
        #expect(tally.consumed == Array(0...9))
        #expect(tally.started <= 10 + 4)
    }

    @Test("no inputs: nothing is consumed")
    func empty() {
        let consumed = ParallelMap.forEachInOrder(
            count: 0,
            jobs: 4,
            transform: { $0 },
            consume: { _ in
                Issue.record("consumed an input that does not exist")
                return true
            }
        )
        #expect(consumed == 0)
    }
}
