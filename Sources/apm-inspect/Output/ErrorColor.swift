import Foundation
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether the severity word of lines on standard error (`error:`, `warning:`, `note:`) is coloured.
///
/// Decided once per run: on a terminal when `NO_COLOR` is unset or empty, unless a command's `--color` said
/// otherwise before any line was written. Only the word is coloured, after the line was escaped, so no input can
/// open or forge a colour.
final class ErrorColor: @unchecked Sendable {
    static let shared = ErrorColor()

    private let lock = NSLockShim()
    private var choice: ColorChoice = .auto

    /// `--color`: always and never apply to standard error too; auto decides by standard error's own terminal.
    func set(_ choice: ColorChoice) {
        lock.withLock { self.choice = choice }
    }

    var isEnabled: Bool {
        let choice = lock.withLock { self.choice }
        return choice.isEnabled(outputIsTerminal: isatty(2) != 0, noColor: ColorChoice.noColorVariable)
    }

    /// `line` (already escaped) with its first severity word in bold colour: red errors, yellow warnings, cyan notes.
    static func colored(_ line: String) -> String {
        for (word, code) in [("error", "1;31"), ("warning", "1;33"), ("note", "1;36")] {
            let plain = word + ": "
            if line.hasPrefix(plain) {
                return "\u{1B}[\(code)m\(word)\u{1B}[0m: " + line.dropFirst(plain.count)
            }
            if let range = line.range(of: ": " + plain) {
                let colored = ": \u{1B}[\(code)m\(word)\u{1B}[0m: "
                return line.replacingCharacters(in: range, with: colored)
            }
        }
        return line
    }
}
