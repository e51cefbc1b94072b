import ParserFuzzing
import ReportRendering

/// A fuzz campaign's messages on standard error, as `apm-inspect` writes its other errors and progress lines.
struct ConsoleFuzzReporter: FuzzRunReporter {
    func fileError(path: String, message: String) {
        Console.error(ErrorLine.render(path: path, location: nil, message: message))
    }

    func fileWarning(path: String, message: String) {
        Console.error(ErrorLine.render(path: path, location: nil, message: message, severity: "warning"))
    }

    func error(_ message: String) {
        Console.error("fuzz: error: \(message)")
    }

    func progress(_ line: String) {
        Console.errorRaw("\r\u{1B}[K" + line)
    }

    func progressEnded() {
        Console.errorRaw("\r\u{1B}[K")
    }
}
