import Dispatch
import Foundation
import InputMutation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a fuzzing campaign: hands out iterations to `jobs` threads, each owning one worker process; saves,
/// minimises and de-duplicates what fails; reports the progress line.
final class FuzzSupervisor: @unchecked Sendable {
    struct Configuration {
        var seed: UInt64
        var iterations: Int?
        var duration: Double?
        var jobs: Int
        var timeoutSeconds: Double
        var memoryLimitMB: Int
        var maxInputBytes: Int
        var minimiseTests: Int
        var minimiseSeconds: Double
        var emitFolder: String?
        var executable: String
        /// The worker's arguments after `executable`.
        var workerArguments: [String]
        var environment: [String: String]
        var temporaryFolder: String
    }

    let configuration: Configuration
    let corpus: FuzzCorpus
    let store: FindingStore
    private let reporter: any FuzzRunReporter
    private let engine: MutationEngine
    private let donorsByFamily: [InputFamily: [MutationInput]]
    private let lock = NSLock()
    private var nextIteration = 0
    private var executions = 0
    private var familiesRun: Set<String> = []
    /// The kind each unchanged corpus file was read as.
    private var lastKind: [Int: String] = [:]
    /// How many inputs each parser answered for (by verdict kind): shows which readers a run reached.
    private var kindCounts: [String: Int] = [:]
    /// How many inputs each symbol reader ran on (``WorkerVerdict/readers``).
    private var readerCounts: [String: Int] = [:]
    private var stopping = false
    private let started = Date()

    init(configuration: Configuration, corpus: FuzzCorpus, store: FindingStore, reporter: any FuzzRunReporter) {
        self.configuration = configuration
        self.corpus = corpus
        self.store = store
        self.reporter = reporter
        self.engine = MutationEngine(maxOutputBytes: configuration.maxInputBytes)
        self.donorsByFamily = Dictionary(grouping: corpus.entries.map(\.input), by: \.family)
    }

    /// Asks the job threads to finish their current input and stop (Ctrl-C).
    func requestStop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    var executionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return executions
    }

    var elapsed: Double { Date().timeIntervalSince(started) }

    func run(progress: Bool) {
        let timer = progress ? startProgress() : nil
        DispatchQueue.concurrentPerform(iterations: configuration.jobs) { job in
            runJob(job)
        }
        timer?.cancel()
        if progress { reporter.progressEnded() }
    }

    /// The verdict kinds and how many inputs had each, most first (ties by name).
    var kindsRead: [(kind: String, count: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return kindCounts.map { (kind: $0.key, count: $0.value) }.sorted {
            $0.count != $1.count ? $0.count > $1.count : $0.kind < $1.kind
        }
    }

    /// Inputs each symbol reader ran on, in the summary's order, zeros included.
    var readersRun: [(reader: String, count: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return ["mach-o", "dwarf-info", "dwarf-line", "swift-demangler", "cxx-demangler"].map {
            (reader: $0, count: readerCounts[$0, default: 0])
        }
    }

    /// The families seen in the corpus, and those run at least once.
    var familyCoverage: (run: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (familiesRun.count, Set(corpus.entries.map(\.label)).count)
    }

    private func claimIteration() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        if stopping { return nil }
        if let limit = configuration.iterations, nextIteration >= limit { return nil }
        if let duration = configuration.duration, elapsed >= duration { return nil }
        defer { nextIteration += 1 }
        return nextIteration
    }

    private func runJob(_ job: Int) {
        let settings = WorkerProcess.Settings(
            executable: configuration.executable,
            arguments: configuration.workerArguments,
            environment: configuration.environment,
            temporaryFolder: configuration.temporaryFolder,
            memoryLimitMB: configuration.memoryLimitMB,
            backtrace: true,
            timeoutSeconds: configuration.timeoutSeconds
        )
        let worker = WorkerProcess(settings: settings, name: "worker-\(job)")
        var quiet = settings
        quiet.backtrace = false
        let minimiser = WorkerProcess(settings: quiet, name: "minimiser-\(job)")
        defer {
            worker.stop()
            minimiser.stop()
        }
        while let iteration = claimIteration() {
            let (entryIndex, bytes, mutation) = input(for: iteration)
            let entry = corpus.entries[entryIndex]
            if let folder = configuration.emitFolder, !mutation.isEmpty {
                let number = String(iteration)
                let name = String(repeating: "0", count: max(8 - number.count, 0)) + number + "-\(entry.label).bin"
                try? Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
            }
            let outcome = worker.run(bytes)
            lock.lock()
            executions += 1
            familiesRun.insert(entry.label)
            // A verdict names the parser that read this very input; a dead worker cannot, so the reader of the
            // unchanged corpus file stands in.
            var kind = lastKind[entryIndex]
            if case .verdict(let verdict) = outcome {
                if mutation.isEmpty { lastKind[entryIndex] = verdict.kind }
                kind = verdict.kind
                kindCounts[verdict.kind, default: 0] += 1
                for reader in verdict.readers ?? [] { readerCounts[reader, default: 0] += 1 }
            }
            lock.unlock()
            guard let failure = FuzzFailure.from(outcome) else { continue }
            let key = failure.key(family: entry.label)
            guard store.claim(key) else { continue }
            let minimised = minimise(bytes, failure: failure, with: minimiser)
            let record = FindingStore.Record(
                kind: failure.kind,
                family: entry.label,
                parser: FuzzCorpus.parser(forKind: kind ?? "", label: entry.label),
                message: failure.message,
                stack: failure.stack,
                signal: failure.signal,
                seed: configuration.seed,
                iteration: iteration,
                corpusFile: entry.path,
                mutation: mutation.isEmpty ? "none (the corpus file itself)" : mutation,
                inputBytes: bytes.count,
                minimisedBytes: minimised.bytes.count,
                minimisationTests: minimised.tests,
                minimisationComplete: minimised.isComplete,
                directory: "",
                duplicates: 0
            )
            do {
                _ = try store.save(record, key: key, input: bytes, minimised: minimised.bytes, stderr: failure.stderr)
            } catch {
                let folder = configuration.emitFolder ?? store.outputFolder
                reporter.error("cannot save a finding under \(folder): \(error)")
            }
        }
    }

    /// Iterations below the corpus size run the corpus files themselves (a failing seed is a finding too); the
    /// others mutate a file chosen by the iteration's own generator.
    private func input(for iteration: Int) -> (Int, [UInt8], String) {
        if iteration < corpus.entries.count {
            return (iteration, corpus.entries[iteration].input.bytes, "")
        }
        var rng = SplitMix64.forIteration(UInt64(iteration), seed: configuration.seed)
        let index = rng.below(corpus.entries.count)
        let input = corpus.entries[index].input
        let mutation = engine.mutate(input, donors: donorsByFamily[input.family] ?? [], rng: &rng)
        return (index, mutation.bytes, mutation.summary)
    }

    /// Delta debugging with the quiet worker, bounded by a number of runs and a time budget.
    private func minimise(
        _ bytes: [UInt8],
        failure: FuzzFailure,
        with worker: WorkerProcess
    ) -> DeltaDebugging.Result {
        let deadline = Date().addingTimeInterval(configuration.minimiseSeconds)
        return DeltaDebugging.minimise(bytes, maxTests: configuration.minimiseTests) { candidate in
            guard Date() < deadline else { return false }
            guard let again = FuzzFailure.from(worker.run(candidate)) else { return false }
            return failure.matches(again)
        }
    }

    private func startProgress() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in
            let runs = executionCount
            let rate = Double(runs) / max(elapsed, 0.001)
            let coverage = familyCoverage
            let limit = configuration.iterations.map { "/\($0)" } ?? ""
            reporter.progress(
                "fuzz: \(runs)\(limit) inputs, \(Int(saturating: rate.rounded())) exec/s, findings \(store.count), "
                    + "families \(coverage.run)/\(coverage.total), \(Int(saturating: elapsed)) s"
            )
        }
        timer.resume()
        return timer
    }
}
