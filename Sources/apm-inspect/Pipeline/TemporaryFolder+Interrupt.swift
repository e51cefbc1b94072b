import APMInspectCore
import Dispatch
import Foundation
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Here, not in ReportSources: the handler ends the process, which only the executable may do.
extension TemporaryFolder {
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
