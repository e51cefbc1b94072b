import APMInspectCore
import FleetReport
import Foundation
import HTTPCaptureParsing
import JetsamParsing
import MCP
import ReportInspection
import ReportRendering
import ReportSources

/// Runs a tool as its command runs with `--format json`, through the same library entry points, into memory.
///
/// Every path of a call is checked against ``AllowedRoots`` before anything is read, and nothing is ever written but
/// the temporary folders the commands use (archives, decompressed databases), which are removed after the call.
package struct ToolRunner: Sendable {
    /// A tool's result: what the command would print on standard output and standard error, and whether it would
    /// exit 1.
    package struct Result: Sendable, Equatable {
        package var output: String
        package var errors: [String]
        package var failed: Bool
    }

    /// The size a tool's result may reach, 16 MiB: more than a client keeps in a model's context, less than any
    /// client refuses.
    package static let outputLimit = 16 << 20

    package let roots: AllowedRoots
    package var outputLimit: Int
    package var jobs: Int
    /// The symbol sources the user started the server with, which every call's frames are named from.
    ///
    /// `--symbols` and `APM_INSPECT_SYMBOLS` serve `inspect`, `symbolicate` and `report`. The user chose them, not
    /// the client, so they are not held to the allowed folders; the client can neither add nor see them.
    package var symbols: SymbolSources

    package init(roots: AllowedRoots, outputLimit: Int = Self.outputLimit, jobs: Int, symbols: SymbolSources = .init())
    {
        self.roots = roots
        self.outputLimit = outputLimit
        self.jobs = max(1, jobs)
        self.symbols = symbols
    }

    /// Whether the server has symbol sources of its own.
    package var hasSymbolSources: Bool { !symbols.local.isEmpty || !symbols.servers.isEmpty }

    /// The result of `tool` called with `arguments`; a ``ToolFailure`` when the call was refused or could not run.
    package func call(_ tool: ToolKind, arguments: [String: Value]?) throws(ToolFailure) -> Result {
        let arguments = try ToolArguments(arguments, for: tool, symbolSources: hasSymbolSources)
        let paths = try arguments.paths("paths", required: true)
        let dsym = try arguments.paths("dsym", required: tool == .symbolicate && !hasSymbolSources)
        for path in paths + dsym {
            if let failure = roots.check(path) { throw failure }
        }
        let output = CappedOutput(limit: outputLimit)
        let failed: Bool
        do {
            switch tool {
            case .inspect: failed = try inspect(paths, dsym: dsym, arguments, sink: output.sink)
            case .symbolicate: failed = try symbolicate(paths, dsym: dsym, arguments, sink: output.sink)
            case .memoryLimits: failed = try memoryLimits(paths, arguments, sink: output.sink)
            case .energy: failed = try energy(paths, sink: output.sink)
            case .http: failed = try http(paths, arguments, sink: output.sink)
            case .report: failed = try report(paths, arguments, sink: output.sink)
            }
        } catch let failure as ToolFailure {
            throw failure
        } catch {
            throw ToolFailure(.mcpToolFailed, "\(tool.rawValue) could not run: \(error)")
        }
        if output.passedLimit {
            throw ToolFailure(
                .mcpOutputTooLarge,
                "the result passed \(outputLimit) bytes; run `\(tool.commandLine) …` in a shell instead, or give "
                    + "fewer paths"
            )
        }
        return Result(output: output.text, errors: output.errors, failed: failed)
    }

    /// As `inspect` decides it: one path that is neither a folder nor an archive, and no `array`, gives an object.
    static func printsOneObject(paths: [String], array: Bool) -> Bool {
        guard !array, paths.count == 1, let only = paths.first else { return false }
        return !PathWalker.isFolder(only) && !ArchiveScanner.isArchive(atPath: only)
    }

    /// The inputs of `paths`, the walk's notes said on `sink`'s standard error as the commands say them.
    static func inputs(_ paths: [String], sink: OutputSink) -> [PathWalker.Input] {
        PathWalker.inputs(in: paths) { note in
            sink.error(ErrorLine.render(path: note.path, location: nil, message: note.message, severity: "note"))
        }
    }

    private func inspect(
        _ paths: [String],
        dsym: [String],
        _ arguments: ToolArguments,
        sink: OutputSink
    ) throws -> Bool {
        let array = try arguments.flag("array")
        let apps = try arguments.strings("app")
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        var inspector = ReportInspector()
        inspector.symbolicator = ReportSymbolication.make(dsymPaths: dsym, symbols: symbols, sink: sink)?.symbolicator
        let inputs = Self.inputs(paths, sink: sink)
        let run = InspectRun(
            reader: InputReader(inspector: inspector, temporary: temporary),
            format: .json,
            oneObject: Self.printsOneObject(paths: paths, array: array) && inputs.count == 1,
            selection: AppSelection(apps: apps),
            jobs: jobs,
            sink: sink
        )
        let outcome = run.run(inputs)
        if let note = InspectRun.leftOutNote(outcome.leftOut) { sink.error(note) }
        return outcome.failures > 0
    }

    private func symbolicate(
        _ paths: [String],
        dsym: [String],
        _ arguments: ToolArguments,
        sink: OutputSink
    ) throws(ToolFailure) -> Bool {
        let force = try arguments.flag("force")
        guard let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbols, force: force, sink: sink)
        else {
            throw ToolFailure(.mcpInvalidArguments, "symbolicate needs `dsym`")
        }
        let run = SymbolicationRun(symbolication: symbolication, stdoutIsTerminal: false, sink: sink)
        let inputs = Self.inputs(paths, sink: sink)
        let temporary: TemporaryFolder
        do { temporary = try TemporaryFolder() } catch {
            throw ToolFailure(.mcpToolFailed, "no private temporary folder for archives: \(error)")
        }
        defer { temporary.remove() }
        return run.printEnvelopes(
            inputs,
            oneObject: Self.printsOneObject(paths: paths, array: false) && inputs.count == 1,
            temporary: temporary
        )
    }

    private func memoryLimits(_ paths: [String], _ arguments: ToolArguments, sink: OutputSink) throws -> Bool {
        let includeAll = try arguments.flag("includeAll")
        let schemaVersion = try arguments.integer("schemaVersion", allowed: 1...2, fallback: 1)
        let walk = WalkedFiles(
            paths,
            note: { sink.error(ErrorLine.render(path: $0.path, location: nil, message: $0.message, severity: "note")) },
            failure: { sink.error(ErrorLine.render(path: $0.path, location: nil, message: $0.message)) }
        )
        let run = MemoryLimitsRun(
            options: MemoryLimitTable.Options(
                includeBeta: includeAll,
                includeModifiedKernels: includeAll,
                includeOtherPlatforms: includeAll
            ),
            jobs: jobs,
            sink: sink
        )
        let (rows, summary, failures, diagnostics) = run.collect(walk.next)
        try run.print(
            rows,
            summary: summary,
            failures: failures,
            diagnostics: diagnostics,
            as: .json,
            schemaVersion: schemaVersion
        )
        return walk.failed || summary.failures > 0
    }

    private func energy(_ paths: [String], sink: OutputSink) throws -> Bool {
        let run = EnergyRun(paths: paths, format: .json, top: 15, plot: nil, sink: sink)
        let files = run.files()
        // The databases a folder led to, checked as the paths were: discovery follows links of its own.
        for file in files.found {
            if let failure = roots.checkOne(file, shown: file.display) { throw failure }
        }
        return try run.run(files, protecting: [])
    }

    private func http(_ paths: [String], _ arguments: ToolArguments, sink: OutputSink) throws -> Bool {
        var options = HTTPCaptureOptions()
        options.redactSecrets = try !arguments.flag("showSecrets")
        let array = try arguments.flag("array")
        let run = HTTPCaptureRun(format: .json, options: options, slowest: 10, sink: sink)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        return run.run(paths, oneObject: Self.printsOneObject(paths: paths, array: array), temporary: temporary)
    }

    private func report(_ paths: [String], _ arguments: ToolArguments, sink: OutputSink) throws -> Bool {
        let since = try arguments.string("since")
        if let since, FleetFilter.parseSince(since) == nil {
            throw ToolFailure(.mcpInvalidArguments, "`since` wants a day (2024-06-01) or an ISO 8601 time")
        }
        let apps = try arguments.strings("app")
        let version = try arguments.string("version")
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let (files, walkFailures) = PathWalker.rawFiles(in: paths) { note in
            sink.error(ErrorLine.render(path: note.path, location: nil, message: note.message, severity: "note"))
        }
        for failure in walkFailures {
            sink.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        var run = FleetReportRun(
            since: since,
            apps: apps,
            version: version,
            jobs: jobs,
            generatedAt: FleetReportRun.generationTime(environment: ProcessInfo.processInfo.environment, now: Date())
        )
        run.symbolicator = ReportSymbolication.make(dsymPaths: [], symbols: symbols, sink: sink)?.symbolicator
        let (summary, errors) = run.summary(of: files, temporary: temporary, sink: sink)
        sink.out(try FleetReportRun.render(summary, as: .json))
        for line in errors { sink.error(line) }
        return !walkFailures.isEmpty || summary.inputs.unreadable > 0 || summary.inputs.rejectedLines > 0
    }
}
