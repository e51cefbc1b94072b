import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One worker process as the supervisor sees it.
///
/// It is spawned from this binary, fed over a pipe, watched with a time limit, and restarted after it dies. Its standard error goes to a file so a crash message and backtrace survive.
final class WorkerProcess {
    /// How one input ended.
    enum Outcome {
        case verdict(WorkerVerdict)
        /// Killed by a signal (a trap is SIGILL or SIGTRAP; the kernel's OOM killer sends SIGKILL).
        case signalled(Int32, stderr: String)
        /// Exited by itself before answering.
        case exited(Int32, stderr: String)
        /// No answer within the time limit; the worker was killed.
        case timedOut(stderr: String)
    }

    struct Settings {
        var executable: String
        /// The worker's arguments after `executable`: the binary's own hidden worker mode.
        var arguments: [String]
        var environment: [String: String]
        var temporaryFolder: String
        var memoryLimitMB: Int
        /// Whether a crash prints a symbolicated backtrace (slower; off while minimising).
        var backtrace: Bool
        var timeoutSeconds: Double
    }

    let settings: Settings
    let stderrPath: String
    private var pid: pid_t = 0
    private var toWorker: Int32 = -1
    private var fromWorker: Int32 = -1

    init(settings: Settings, name: String) {
        self.settings = settings
        self.stderrPath = settings.temporaryFolder + "/\(name).stderr"
    }

    deinit {
        stop()
    }

    /// Runs `input`, starting the worker first when it is not running.
    func run(_ input: [UInt8]) -> Outcome {
        if pid == 0, !start() { return .exited(-1, stderr: "cannot start the worker process") }
        guard FuzzWire.writeFrame(toWorker, input) else { return finish(timedOut: false) }
        var poller = pollfd(fd: fromWorker, events: Int16(POLLIN), revents: 0)
        var deadline = Date().addingTimeInterval(settings.timeoutSeconds)
        var grace = true
        while true {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                // A worker printing a crash backtrace is dying, not hanging: give the backtracer time once.
                if grace, crashing() {
                    grace = false
                    deadline = Date().addingTimeInterval(60)
                    continue
                }
                return finish(timedOut: true)
            }
            let ready = poll(&poller, 1, Int32(min(remaining * 1000, 1000)))
            if ready < 0, errno == EINTR { continue }
            if ready > 0 { break }
        }
        guard let payload = FuzzWire.readFrame(fromWorker),
            let verdict = try? JSONDecoder().decode(WorkerVerdict.self, from: Data(payload))
        else { return finish(timedOut: false) }
        return .verdict(verdict)
    }

    /// Closes the worker's input and waits for it.
    func stop() {
        guard pid != 0 else { return }
        close(toWorker)
        close(fromWorker)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        pid = 0
    }

    private func crashing() -> Bool {
        let text = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        return text.contains("Program crashed") || text.contains("Fatal error") || text.contains("Crash")
    }

    /// Collects how the worker died, after a failed read or a time-out, and forgets it (the next run restarts it).
    private func finish(timedOut: Bool) -> Outcome {
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        var waited: pid_t
        repeat { waited = waitpid(pid, &status, 0) } while waited < 0 && errno == EINTR
        close(toWorker)
        close(fromWorker)
        pid = 0
        let stderr = Self.tail(stderrPath)
        if timedOut { return .timedOut(stderr: stderr) }
        let signal = status & 0x7F
        if signal != 0 { return .signalled(signal, stderr: stderr) }
        return .exited((status >> 8) & 0xFF, stderr: stderr)
    }

    /// The last 64 KB of the worker's standard error (a runaway message cannot fill memory).
    private static func tail(_ path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "" }
        defer { try? handle.close() }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.seek(toOffset: size > 65536 ? size - 65536 : 0)
        let data = (try? handle.readToEnd()) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private func start() -> Bool {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { return false }
        guard pipe(&output) == 0 else {
            close(input[0])
            close(input[1])
            return false
        }
        // Other workers must not inherit these ends, or a dead worker's pipe never reports end of file.
        for fd in input + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let arguments = [settings.executable] + settings.arguments
        var environment = settings.environment
        environment["SWIFT_BACKTRACE"] =
            settings.backtrace
            ? "enable=yes,interactive=no,color=no,output-to=stderr,threads=crashed,registers=none,images=none,"
                + "sanitize=yes,limit=40,top=0"
            : "enable=no"
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, settings.executable, &actions, nil, argv, envp)
        close(input[0])
        close(output[1])
        guard result == 0 else {
            close(input[1])
            close(output[0])
            return false
        }
        pid = child
        toWorker = input[1]
        fromWorker = output[0]
        return true
    }
}
