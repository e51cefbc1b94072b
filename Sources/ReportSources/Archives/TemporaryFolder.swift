import APMInspectCore
import Dispatch
import Foundation

/// A private temporary folder for the files a scan must materialise, removed at the end and on Ctrl-C.
package final class TemporaryFolder: @unchecked Sendable {
    package let path: String
    private let counter = AtomicCounter()

    /// Made by `mkdtemp` (a fresh name, mode 0700) and registered with ``TemporaryFiles``, so the interrupt handler
    /// removes it with the libraries' own folders.
    package init() throws {
        path = try TemporaryFiles.makeFolder(prefix: "apm-inspect-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// A fresh path inside the folder, keeping the member's name for readable diagnostics.
    package func makeFile(named name: String) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" }
        return path + "/\(counter.increment())-\(safe.isEmpty ? "member" : safe)"
    }

    package func remove() {
        TemporaryFiles.remove(path)
    }
}
