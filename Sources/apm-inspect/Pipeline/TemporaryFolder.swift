import APMInspectCore
import Dispatch
import Foundation

/// A private temporary folder for the files a scan must materialise, removed at the end and on Ctrl-C.
final class TemporaryFolder: @unchecked Sendable {
    let path: String
    private let counter = AtomicCounter()

    /// Made by `mkdtemp` (a fresh name, mode 0700) and registered with ``TemporaryFiles``, so the interrupt handler
    /// removes it with the libraries' own folders.
    init() throws {
        path = try TemporaryFiles.makeFolder(prefix: "apm-inspect-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// A fresh path inside the folder, keeping the member's name for readable diagnostics.
    func makeFile(named name: String) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
        return path + "/\(counter.increment())-\(safe.isEmpty ? "member" : safe)"
    }

    /// Kept for callers written before the process-wide handler: ``installInterruptCleanup()`` covers this folder.
    func removeOnInterrupt() {
        Self.installInterruptCleanup()
    }

    func remove() {
        TemporaryFiles.remove(path)
    }

    private static let signalSources = NSLockShim()
    nonisolated(unsafe) private static var installed: [DispatchSourceSignal] = []

    /// Removes every registered temporary folder on SIGINT or SIGTERM, then exits.
    ///
    /// The folders are the scan's and those PowerLogReading makes for decompressed or copied databases; the exit
    /// status is 130 (SIGINT) or 143 (SIGTERM), as a shell reports the signal. Installed once, at start-up, for
    /// every command.
    static func installInterruptCleanup() {
        signalSources.withLock {
            guard installed.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    TemporaryFiles.removeAll()
                    exit(128 + number)
                }
                source.resume()
                installed.append(source)
            }
        }
    }
}
