import APMInspectCore
import ArgumentParser

/// `apm-inspect inspect FILE...`: what each file is and what it says.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Tell what each file is and what it says.",
        discussion: """
            Prints a summary for people, or with --format json the envelope {file, kind, diagnostics, report} \
            (one JSON document per file, in an array when several files are given); --format ndjson prints one \
            envelope per line for pipelines. Folders are read recursively.
            """
    )

    @Argument(help: "Files or folders to inspect.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format: text, json or ndjson.")
    var format: OutputFormat = .text

    @Option(name: .shortAndLong, help: "Worker threads (default: all cores).")
    var jobs: Int = ProcessInfoShim.activeProcessorCount

    func validate() throws {
        if format == .csv || format == .markdown {
            throw ValidationError("inspect prints text, json or ndjson; csv and markdown are for memory-limits")
        }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let (files, walkFailures) = PathWalker.rawFiles(in: paths)
        var failed = !walkFailures.isEmpty
        for failure in walkFailures {
            Console.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        var textInspector = FileInspector()
        textInspector.httpSummaryOnly = format == .text
        let inspector = textInspector
        let progress = ProgressBar(total: files.count, label: "inspect")
        let results = ParallelMap.map(
            count: files.count,
            jobs: jobs,
            progress: { progress.advance() },
            transform: { index in Self.pointingArchivesToScan(inspector.inspect(raw: files[index])) }
        )
        progress.finish()
        var documents: [Inspection] = []
        for case let inspection? in results {
            if let failure = inspection.failure {
                failed = true
                Console.error(
                    ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
                )
            }
            switch format {
            case .ndjson:
                if JSONOutput.printEnvelope(inspection, pretty: false) { failed = true }
            case .json:
                documents.append(inspection)
            default:
                Console.text(InspectionRenderer.render(inspection))
            }
        }
        if format == .json {
            let single = paths.count == 1 && files.count == 1
            if JSONOutput.printEnvelopes(documents, format: .json, single: single) { failed = true }
        }
        if failed { throw ExitCode(1) }
    }

    /// A tar or tar.gz (a sysdiagnose) holds reports `scan` reads without extracting them: the note says so.
    static func pointingArchivesToScan(_ inspection: Inspection) -> Inspection {
        guard case .unrecognised(var summary) = inspection.report, summary.format == .tar || summary.format == .gzip,
            Scanner.isArchive(inspection.file)
        else { return inspection }
        summary.note =
            "a \(summary.format == .tar ? "tar" : "tar.gz") archive: `apm-inspect scan` reads the reports inside it"
        var pointed = inspection
        pointed.report = .unrecognised(summary)
        return pointed
    }
}
