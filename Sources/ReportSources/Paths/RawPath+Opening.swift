import APMInspectCore
import Foundation
import ReportInspection

extension RawPath {
    /// Calls `body` with a `String` path that opens this file, or returns why it cannot be opened.
    ///
    /// Readers take `String` paths, which cannot hold a name that is not UTF-8: such a file is opened by its bytes
    /// and handed over as `/proc/self/fd/N`, which names the same file (SQLite and FileReading open it again).
    package func withOpenablePath<R>(_ body: (String) -> R) -> Result<R, OpenFailure> {
        guard !isUTF8 else { return .success(body(display)) }
        // Non-blocking, so a FIFO with such a name cannot hang the open; the reader decides what to do with it.
        let fd = withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return .failure(OpenFailure(message: "cannot open: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        return .success(body("/proc/self/fd/\(fd)"))
    }

    package struct OpenFailure: Error {
        package var message: String
    }
}

extension ReportInspector {
    /// Inspects a file named by bytes; the result names it with ``RawPath/display``.
    package func inspect(raw: RawPath) -> Inspection {
        let result = raw.withOpenablePath { path in
            var inspection = inspect(path: path)
            inspection.rename(from: path, to: raw.display)
            return inspection
        }
        switch result {
        case .success(let inspection):
            return inspection
        case .failure(let failure):
            return Inspection(
                file: raw.display,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: "unreadable", message: failure.message, location: nil)
            )
        }
    }
}
