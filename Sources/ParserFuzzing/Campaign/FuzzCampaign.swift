import APMInspectCore
import Foundation

/// One `apm-inspect fuzz` run: the corpus loaded and the output folders checked before anything runs, then the
/// supervisor over the workers, then the summary.
///
/// The executable keeps what belongs to a process (arguments, signals, the temporary folder, the exit status); this
/// type keeps the decisions, so a test or another front end runs the same campaign.
///
/// Unchecked: every stored property is a constant, and the supervisor guards its own state with a lock.
package final class FuzzCampaign: @unchecked Sendable {
    /// What the command line asked for, with what the executable alone knows (its own path, the worker's arguments).
    package struct Request: Sendable {
        /// Corpus files or folders; empty for the bundled `Corpus/`.
        package var paths: [String]
        package var seed: UInt64
        package var iterations: Int?
        package var duration: Double?
        package var jobs: Int
        package var timeoutSeconds: Double
        package var memoryLimitMB: Int
        package var maxInputBytes: Int
        package var minimiseRuns: Int
        package var minimiseSeconds: Double
        /// Findings folder; nil for a new `./apm-inspect-fuzz-<time>` made when the first finding is saved.
        package var out: String?
        /// Folder that receives every mutated input.
        package var emit: String?
        /// The binary the workers run, also where the bundled corpus is looked for.
        package var executable: String
        /// The worker's arguments after the binary's path (the executable's own hidden worker mode).
        package var workerArguments: [String]
        /// The workers' environment.
        package var environment: [String: String]
        /// A private folder owned by the caller for the workers' standard error and materialised inputs.
        package var temporaryFolder: String
        /// The version printed in the summary's first line.
        package var version: String

        package init(
            paths: [String],
            seed: UInt64,
            iterations: Int?,
            duration: Double?,
            jobs: Int,
            timeoutSeconds: Double,
            memoryLimitMB: Int,
            maxInputBytes: Int,
            minimiseRuns: Int,
            minimiseSeconds: Double,
            out: String?,
            emit: String?,
            executable: String,
            workerArguments: [String],
            environment: [String: String],
            temporaryFolder: String,
            version: String
        ) {
            self.paths = paths
            self.seed = seed
            self.iterations = iterations
            self.duration = duration
            self.jobs = jobs
            self.timeoutSeconds = timeoutSeconds
            self.memoryLimitMB = memoryLimitMB
            self.maxInputBytes = maxInputBytes
            self.minimiseRuns = minimiseRuns
            self.minimiseSeconds = minimiseSeconds
            self.out = out
            self.emit = emit
            self.executable = executable
            self.workerArguments = workerArguments
            self.environment = environment
            self.temporaryFolder = temporaryFolder
            self.version = version
        }
    }

    /// Why a run cannot start: the usage errors of `fuzz` (exit status 2).
    package struct UsageError: Error, Sendable {
        package var message: String
    }

    /// How a run ended.
    package struct Result: Sendable {
        /// The end-of-run report, plain text ending in a newline.
        package var summary: String
        /// True when at least one failure was found (exit status 1).
        package var foundSomething: Bool
    }

    /// Lists the files under corpus paths, with the paths that gave none and why.
    package typealias Walk = ([String]) -> (files: [String], failures: [(path: String, message: String)])

    private let supervisor: FuzzSupervisor
    private let corpus: FuzzCorpus
    private let store: FindingStore
    private let version: String
    private let seconds: @Sendable (Double) -> String

    /// Loads the corpus and checks `--emit` (made here) and `--out`, in that order.
    ///
    /// - Parameters:
    ///   - request: what the command line asked for.
    ///   - walk: how corpus paths become files (the executable's walker, shared with its other commands).
    ///   - seconds: how the summary writes the run's duration.
    ///   - reporter: where the files that could not be read, the progress line and later problems go.
    /// - Throws: ``UsageError`` when there is no corpus or a folder is not new or empty; the files that could not
    ///   be read or were skipped are reported before.
    package init(
        _ request: Request,
        walk: Walk,
        seconds: @escaping @Sendable (Double) -> String,
        reporter: any FuzzRunReporter
    ) throws(UsageError) {
        let bundled = request.paths.isEmpty
        var corpusPaths = request.paths
        if bundled {
            guard let folder = FuzzCorpus.bundledFolder(executable: request.executable) else {
                throw UsageError(
                    message: "no corpus given and the bundled Corpus/ was not found (looked in ./Corpus and "
                        + "beside the executable); name files or folders: apm-inspect fuzz FOLDER"
                )
            }
            corpusPaths = [folder]
        }
        let (files, walkFailures) = walk(corpusPaths)
        let corpus = FuzzCorpus.load(files: files, bundled: bundled, maxInputBytes: request.maxInputBytes)
        for failure in walkFailures { reporter.fileError(path: failure.path, message: failure.message) }
        for skipped in corpus.skipped {
            reporter.fileWarning(path: skipped.path, message: "skipped: \(skipped.reason)")
        }
        guard !corpus.entries.isEmpty else { throw UsageError(message: "the corpus has no files to mutate") }
        if let emit = request.emit { try Self.prepareEmptyFolder(emit) }
        let outFolder = request.out ?? Self.defaultOutFolder()
        if let out = request.out { try Self.checkOutFolder(out) }
        let configuration = FuzzSupervisor.Configuration(
            seed: request.seed,
            iterations: request.iterations ?? (request.duration == nil ? 10_000 : nil),
            duration: request.duration,
            jobs: request.jobs,
            timeoutSeconds: request.timeoutSeconds,
            memoryLimitMB: request.memoryLimitMB,
            maxInputBytes: request.maxInputBytes,
            minimiseTests: request.minimiseRuns,
            minimiseSeconds: request.minimiseSeconds,
            emitFolder: request.emit,
            executable: request.executable,
            workerArguments: request.workerArguments,
            environment: request.environment,
            temporaryFolder: request.temporaryFolder
        )
        self.corpus = corpus
        self.store = FindingStore(outputFolder: outFolder)
        self.supervisor = FuzzSupervisor(configuration: configuration, corpus: corpus, store: store, reporter: reporter)
        self.version = request.version
        self.seconds = seconds
    }

    /// Asks the workers to finish the inputs in flight and stop (Ctrl-C); findings so far are kept and summarised.
    package func requestStop() {
        supervisor.requestStop()
    }

    /// Runs the campaign to its end: iterations, duration, or a stop request.
    ///
    /// - Parameter progress: whether to report a progress line each second (a terminal is watching).
    /// - Returns: the summary, and whether anything was found.
    package func run(progress: Bool) -> Result {
        supervisor.run(progress: progress)
        let summary = FuzzSummary.render(
            supervisor: supervisor,
            corpus: corpus,
            store: store,
            version: version,
            seconds: seconds
        )
        return Result(summary: summary, foundSomething: !store.all.isEmpty || store.count > 0)
    }

    /// `./apm-inspect-fuzz-20261124-221500`: new for each run, in the current folder, never beside the corpus.
    static func defaultOutFolder() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var name = "apm-inspect-fuzz-" + formatter.string(from: Date())
        var suffix = 1
        while FileManager.default.fileExists(atPath: name) {
            suffix += 1
            name = "apm-inspect-fuzz-" + formatter.string(from: Date()) + "-\(suffix)"
        }
        return FileManager.default.currentDirectoryPath + "/" + name
    }

    /// Findings must not mix with an earlier run's: `--out` names a new or empty folder.
    private static func checkOutFolder(_ path: String) throws(UsageError) {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && (!isDirectory.boolValue || !contents.isEmpty) {
            throw UsageError(message: "\(TerminalText.escaped(path)) is not a new or empty folder (--out and --emit)")
        }
    }

    private static func prepareEmptyFolder(_ path: String) throws(UsageError) {
        try checkOutFolder(path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw UsageError(message: "cannot create \(TerminalText.escaped(path)): \(error.localizedDescription)")
        }
    }
}
