import APMInspectCore
import Foundation

/// A progress bar on standard error, shown only on a terminal and only once the work takes more than a moment.
final class ProgressBar: @unchecked Sendable {
    private let total: Int
    private let label: String
    private let enabled: Bool
    private let start = Date()
    private var done = 0
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let lock = NSLock()

    /// A bar for `total` items, off unless standard error is a terminal.
    ///
    /// `streamsOutput`: the command prints results while the bar runs. The bar is then off when standard output
    /// is a terminal too, so it never lands inside the data (the results appearing are the progress).
    init(total: Int, label: String, streamsOutput: Bool = false) {
        self.total = total
        self.label = label
        self.enabled = Console.stderrIsTerminal && total > 1 && !(streamsOutput && Console.stdoutIsTerminal)
    }

    /// Records one finished item and redraws at most ten times a second.
    func advance() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let now = Date()
        guard now.timeIntervalSince(start) > 0.5, now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        drawn = true
        let width = 30
        let filled = min(max(0, total > 0 ? width * done / total : width), width)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let rate = Double(done) / max(now.timeIntervalSince(start), 0.001)
        Console.errorRaw("\r\(label) \(bar) \(done)/\(total)  \(Int(saturating: rate)) files/s ")
    }

    /// Clears the bar so the result starts on a clean line.
    func finish() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        if drawn { Console.errorRaw("\r\u{1B}[2K") }
    }
}
