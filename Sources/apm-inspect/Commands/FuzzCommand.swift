import APMInspectCore
import ArgumentParser
import Dispatch
import Foundation
import ParserFuzzing
import ReportRendering
import ReportSources

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
            let status = FuzzWorker.run(
                temporaryFolder: workerFolder,
                memoryLimitMB: memoryLimit,
                selfTestMode: ProcessInfo.processInfo.environment[SelfTestHook.variable],
                renderText: { _ = InspectionRenderer.render($0) }
            )
            throw ExitCode(status)
        }
        // A worker that dies while an input is being written must not take the supervisor with it.
        signal(SIGPIPE, SIG_IGN)
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let executable = Self.executablePath()
        let request = FuzzCampaign.Request(
            paths: paths,
            seed: seed ?? UInt64(Date().timeIntervalSince1970 * 1000),
            iterations: iterations,
            duration: duration,
            jobs: jobs,
            timeoutSeconds: timeout,
            memoryLimitMB: memoryLimit,
            maxInputBytes: maxInputSize,
            minimiseRuns: minimiseRuns,
            minimiseSeconds: minimiseSeconds,
            out: out,
            emit: emit,
            executable: executable,
            workerArguments: [
                "fuzz", "--worker", "--worker-folder", temporary.path, "--memory-limit", String(memoryLimit),
            ],
            environment: ProcessInfo.processInfo.environment,
            temporaryFolder: temporary.path,
            version: APMInspect.configuration.version
        )
        let campaign: FuzzCampaign
        do {
            campaign = try FuzzCampaign(
                request,
                walk: { paths in
                    let (files, failures) = PathWalker.files(in: paths)
                    return (files, failures.map { (path: $0.path, message: $0.message) })
                },
                seconds: Formatting.oneDecimal,
                reporter: ConsoleFuzzReporter()
            )
        } catch {
            Console.error("fuzz: error: \(error.message)")
            throw ExitCode(2)
        }
        let interrupts = Self.stopOnInterrupt(campaign)
        let result = campaign.run(progress: isatty(2) == 1)
        _ = interrupts
        Console.out(result.summary)
        if result.foundSomething { throw ExitCode(1) }
    }

    /// Ctrl-C stops the run after the inputs in flight; findings so far are kept and summarised.
    private static func stopOnInterrupt(_ campaign: FuzzCampaign) -> [DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { campaign.requestStop() }
            source.resume()
            return source
        }
    }

    private static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
