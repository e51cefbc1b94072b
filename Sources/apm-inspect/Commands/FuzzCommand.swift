import APMInspectCore
import ArgumentParser
import Dispatch
import Foundation
import ReportRendering

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `apm-inspect fuzz [CORPUS...]`: hostile variants of diagnostic files, fed to this tool's parsers.
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Mutate diagnostic files and feed them to the parsers, reporting traps, hangs and broken properties.",
        discussion: """
            Each corpus file (default: the bundled Corpus/) is sniffed and mutated byte by byte and by its \
            structure; each variant is read in a worker process as `inspect` reads it (both renderers included), \
            and a Mach-O binary or dSYM as `atos` and `symbolicate` read it too. \
            A trap, a signal, a hang past --timeout or memory past --memory-limit is caught by the supervisor; the \
            input is saved under --out with its seed, minimised and de-duplicated by its stack. Property failures \
            (a parse that differs between two runs, invalid JSON output, a translated report that reads back \
            differently, a dropped unknown key) are findings too. Nothing is written beside the corpus files. \
            Exit status: 0 when nothing was found, 1 when something was, 2 without a corpus or with an --out or --emit \
            folder that is not new or empty. See docs/fuzzing.md.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "200 mutated inputs of the crash corpus, reproducible with the same seed",
            "fuzz --seed 1 --iterations 200 Corpus/crash"
        )
    ]

    @Argument(help: "Corpus files or folders (default: the bundled Corpus/).", completion: .file())
    var paths: [String] = []

    @Option(help: "Seed of the run: the same seed and corpus give the same inputs (default: from the clock).")
    var seed: UInt64?

    @Option(help: "Inputs to run, corpus files included (default 10000 unless --duration is given).")
    var iterations: Int?

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .shortAndLong, help: "Worker processes.")
    var jobs: Int = 1

    @Option(help: "Folder for findings (default: a new ./apm-inspect-fuzz-<time> folder, made when needed).")
    var out: String?

    @Option(help: "Also write every mutated input into this new or empty folder.")
    var emit: String?

    @Option(help: "Seconds one input may take before it counts as a hang.")
    var timeout: Double = 10

    @Option(help: "Address-space limit of a worker, in MB.")
    var memoryLimit: Int = 4096

    @Option(help: "Largest corpus file and mutated input, in bytes.")
    var maxInputSize: Int = 16 << 20

    @Option(help: "Most runs spent minimising one finding.")
    var minimiseRuns: Int = 500

    @Option(help: "Most seconds spent minimising one finding.")
    var minimiseSeconds: Double = 60

    @Flag(help: .hidden) var worker = false
    @Option(help: .hidden) var workerFolder: String?

    func validate() throws {
        if worker { return }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
        if memoryLimit < 256 { throw ValidationError("--memory-limit must be at least 256 (MB)") }
        if maxInputSize < 1 { throw ValidationError("--max-input-size must be at least 1") }
        if minimiseRuns < 0 || minimiseSeconds < 0 { throw ValidationError("minimisation budgets cannot be negative") }
    }

    func run() throws {
        if worker {
            guard let workerFolder else { throw ExitCode(2) }
            throw ExitCode(FuzzWorker.run(temporaryFolder: workerFolder, memoryLimitMB: memoryLimit))
        }
        // A worker that dies while an input is being written must not take the supervisor with it.
        signal(SIGPIPE, SIG_IGN)
        let bundled = paths.isEmpty
        var corpusPaths = paths
        if bundled {
            guard let folder = FuzzCorpus.bundledFolder() else {
                Console.error(
                    "fuzz: error: no corpus given and the bundled Corpus/ was not found (looked in ./Corpus and "
                        + "beside the executable); name files or folders: apm-inspect fuzz FOLDER"
                )
                throw ExitCode(2)
            }
            corpusPaths = [folder]
        }
        let (corpus, walkFailures) = FuzzCorpus.load(paths: corpusPaths, bundled: bundled, maxInputBytes: maxInputSize)
        for failure in walkFailures {
            Console.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        for skipped in corpus.skipped {
            Console.error(
                ErrorLine.render(
                    path: skipped.path,
                    location: nil,
                    message: "skipped: \(skipped.reason)",
                    severity: "warning"
                )
            )
        }
        guard !corpus.entries.isEmpty else {
            Console.error("fuzz: error: the corpus has no files to mutate")
            throw ExitCode(2)
        }
        if let emit { try Self.prepareEmptyFolder(emit) }
        let outFolder = out ?? Self.defaultOutFolder()
        if let out { try Self.checkOutFolder(out) }
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        let configuration = FuzzSupervisor.Configuration(
            seed: seed,
            iterations: iterations ?? (duration == nil ? 10_000 : nil),
            duration: duration,
            jobs: jobs,
            timeoutSeconds: timeout,
            memoryLimitMB: memoryLimit,
            maxInputBytes: maxInputSize,
            minimiseTests: minimiseRuns,
            minimiseSeconds: minimiseSeconds,
            emitFolder: emit,
            executable: Self.executablePath(),
            temporaryFolder: temporary.path
        )
        let store = FindingStore(outputFolder: outFolder)
        let supervisor = FuzzSupervisor(configuration: configuration, corpus: corpus, store: store)
        let interrupts = Self.stopOnInterrupt(supervisor)
        supervisor.run(progress: isatty(2) == 1)
        _ = interrupts
        Console.out(FuzzSummary.render(supervisor: supervisor, corpus: corpus, store: store))
        if !store.all.isEmpty || store.count > 0 { throw ExitCode(1) }
    }

    /// Ctrl-C stops the run after the inputs in flight; findings so far are kept and summarised.
    private static func stopOnInterrupt(_ supervisor: FuzzSupervisor) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { supervisor.requestStop() }
            source.resume()
            return source
        }
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
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
    private static func checkOutFolder(_ path: String) throws {
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && (!isDirectory.boolValue || !contents.isEmpty) {
            Console.error("fuzz: error: \(TerminalText.escaped(path)) is not a new or empty folder (--out and --emit)")
            throw ExitCode(2)
        }
    }

    private static func prepareEmptyFolder(_ path: String) throws {
        try checkOutFolder(path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            Console.error("fuzz: error: cannot create \(TerminalText.escaped(path)): \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
