import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failing input's failure, classified, with the top of its stack for de-duplication.
struct FuzzFailure {
    /// `trap`, `crash` (SIGSEGV/SIGBUS), `abort`, `oom`, `hang`, `exit`, or the name of a failed property.
    var kind: String
    var message: String
    /// The failing thread's frames below the runtime's own failure functions, innermost first.
    var stack: [String]
    var signal: Int32?
    var stderr: String

    /// The frames that identify the failure (runtime and C library frames skipped).
    static let dedupFrames = 3

    /// Two failures with the same key are the same bug found twice.
    func key(family: String) -> String {
        if !stack.isEmpty { return kind + "|" + stack.prefix(Self.dedupFrames).joined(separator: "|") }
        // Properties: the message up to its first colon names what differs, without the input's values.
        return kind + "|" + family + "|" + head(message)
    }

    /// Whether a candidate input fails the same way, for minimisation (the message, not the stack: candidates
    /// run without the slow backtrace).
    func matches(_ other: FuzzFailure) -> Bool {
        guard kind == other.kind else { return false }
        switch kind {
        case "hang", "oom": return true
        case "trap", "crash", "abort", "exit":
            // Release builds trap without a message, and candidates run without the backtracer: the same signal
            // counts, and the runtime's `Fatal error` text too when both have one.
            guard signal == other.signal else { return false }
            guard message.hasPrefix("Fatal error"), other.message.hasPrefix("Fatal error") else { return true }
            return firstLine(message) == firstLine(other.message)
        // Properties: what differs (the message before its first colon), not the input's values.
        default: return head(message) == head(other.message)
        }
    }

    private func head(_ text: String) -> String {
        text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
    }

    private func firstLine(_ text: String) -> String {
        text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? text
    }

    /// The failure behind a worker outcome, nil when the input passed.
    static func from(_ outcome: WorkerProcess.Outcome) -> FuzzFailure? {
        switch outcome {
        case .verdict(let verdict):
            guard let property = verdict.property else { return nil }
            return FuzzFailure(kind: property, message: verdict.message ?? property, stack: [], signal: nil, stderr: "")
        case .timedOut(let stderr):
            return FuzzFailure(
                kind: "hang",
                message: "no answer within the time limit",
                stack: [],
                signal: nil,
                stderr: stderr
            )
        case .signalled(let number, let stderr):
            let outOfMemory = stderr.contains("allocate") || stderr.contains("out of memory")
            let kind: String
            switch number {
            case SIGILL, SIGTRAP: kind = outOfMemory ? "oom" : "trap"
            case SIGKILL: kind = "oom"
            case SIGABRT: kind = outOfMemory ? "oom" : "abort"
            case SIGSEGV, SIGBUS: kind = outOfMemory ? "oom" : "crash"
            default: kind = "signal-\(number)"
            }
            return FuzzFailure(
                kind: kind,
                message: message(in: stderr) ?? "killed by signal \(number)",
                stack: frames(in: stderr),
                signal: number,
                stderr: stderr
            )
        case .exited(let status, let stderr):
            let outOfMemory = stderr.contains("allocate") || stderr.contains("out of memory")
            return FuzzFailure(
                kind: outOfMemory ? "oom" : "exit",
                message: message(in: stderr) ?? "the worker exited with status \(status)",
                stack: frames(in: stderr),
                signal: nil,
                stderr: stderr
            )
        }
    }

    /// The runtime's own line: `…Fatal error: Index out of range`, or the backtracer's `Program crashed: …`.
    static func message(in stderr: String) -> String? {
        let lines = stderr.split(separator: "\n")
        for marker in ["Fatal error", "Swift runtime failure", "failed to allocate", "Program crashed"] {
            for line in lines {
                guard let range = line.range(of: marker) else { continue }
                var text = String(line[range.lowerBound...])
                // `Program crashed: Illegal instruction at 0x…`: the address changes from run to run.
                if let at = text.range(of: " at 0x") {
                    text = String(text[..<at.lowerBound])
                }
                return text.trimmedSpaces().replacingOccurrences(of: " ***", with: "")
            }
        }
        return nil
    }

    /// Function names of the crashed thread's frames in a Swift backtrace (`0 [ra] 0x… symbol + 12 in image at …`),
    /// without the runtime's failure functions and C library frames.
    static func frames(in stderr: String) -> [String] {
        var frames: [String] = []
        var inCrashedThread = false
        for raw in stderr.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw).trimmedSpaces()
            if line.hasPrefix("Thread "), line.hasSuffix("crashed:") {
                inCrashedThread = true
                continue
            }
            guard inCrashedThread else { continue }
            if line.isEmpty { if !frames.isEmpty { break } else { continue } }
            var tokens = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let index = tokens.first, Int(index) != nil else { continue }
            tokens.removeFirst()
            while let first = tokens.first, first.hasPrefix("[") || first.hasPrefix("0x") { tokens.removeFirst() }
            let text = tokens.joined(separator: " ")
            var symbol = text
            var image = ""
            if let separator = text.range(of: " in ") {
                symbol = String(text[..<separator.lowerBound])
                let rest = text[separator.upperBound...]
                image = rest.split(separator: " ").first.map(String.init) ?? ""
            }
            if let plus = symbol.range(of: " + ", options: String.CompareOptions.backwards) {
                symbol = String(symbol[..<plus.lowerBound])
            }
            if Self.isRuntime(symbol: symbol, image: image) { continue }
            // Release builds list a specialised copy and its inlined original: one frame for de-duplication.
            if symbol.hasPrefix("specialized ") { symbol.removeFirst("specialized ".count) }
            if frames.last == symbol { continue }
            frames.append(symbol)
            if frames.count >= 16 { break }
        }
        return frames
    }

    private static func isRuntime(symbol: String, image: String) -> Bool {
        if image.hasPrefix("libc.so") || image.hasPrefix("libswiftCore") || image.hasPrefix("ld-linux") { return true }
        let runtime = ["_assertionFailure", "fatalError", "Swift runtime failure", "swift_", "__", "abort", "raise"]
        return runtime.contains { symbol.hasPrefix($0) } || symbol.isEmpty
    }
}

extension String {
    fileprivate func trimmedSpaces() -> String {
        var slice = self[...]
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
