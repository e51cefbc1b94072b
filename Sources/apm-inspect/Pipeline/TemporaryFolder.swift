import Dispatch
import Foundation

/// A private temporary folder for the files a scan must materialise, removed at the end and on Ctrl-C.
final class TemporaryFolder: @unchecked Sendable {
    let path: String
    private let counter = AtomicCounter()
    private var signalSources: [DispatchSourceSignal] = []

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/apm-inspect-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: path,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
    }

    /// A fresh path inside the folder, keeping the member's name for readable diagnostics.
    func makeFile(named name: String) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
        return path + "/\(counter.increment())-\(safe.isEmpty ? "member" : safe)"
    }

    /// Removes the folder when the user interrupts (SIGINT, SIGTERM), then exits with 130.
    func removeOnInterrupt() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [path] in
                try? FileManager.default.removeItem(atPath: path)
                exit(130)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
