import APMInspectCore
import ReportInspection

extension InputCheck {
    /// What reading one report's bytes for `translate` or `symbolicate` gave.
    package enum ReportBytes: Sendable {
        /// The report's bytes (expanded when the file was a gzip of one report), and what to say about them.
        case bytes([UInt8], notes: [Diagnostic])
        /// Why there are none: the message for the user, and where in the input.
        case problem(String, SourceLocation?)
        /// A tar or tar.gz: the file to stream it from, or its bytes when they came from a pipe.
        case archive(path: String?, bytes: [UInt8]?)

        /// The archive case as the hint the commands that read one report give (`scan` reads archives).
        package var refusingArchives: ReportBytes {
            if case .archive = self { return .problem(InputCheck.archiveHintMessage, nil) }
            return self
        }
    }

    /// The bytes of the one report at `openable`, as the commands that rewrite a single report read it.
    ///
    /// An archive is named as one, for the caller to read member by member or refuse (``ReportBytes/refusingArchives``); a gzip of one report
    /// (`x.ips.gz`) is expanded within the limits `inspect` expands it with, so every command reads what `inspect`
    /// reads.
    package static func reportBytes(atPath openable: String) -> ReportBytes {
        if let problem = problem(atPath: openable) { return .problem(problem, nil) }
        if ArchiveScanner.isArchive(atPath: openable) { return .archive(path: openable, bytes: nil) }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: openable)
        } catch {
            return .problem(error.message, error.location)
        }
        if archiveHint(bytes: bytes) != nil { return .archive(path: nil, bytes: bytes) }
        guard ContentSniffer.format(of: bytes) == .gzip else { return .bytes(bytes, notes: []) }
        do {
            let expanded = try ReportInspector.expandGzip(bytes)
            guard expanded.isTruncated else { return .bytes(expanded.bytes, notes: []) }
            let cut = Diagnostic(
                .warning,
                .reportGzipTruncated,
                "the gzip stream ends early: the \(expanded.bytes.count) bytes before the cut were read",
                at: nil
            )
            return .bytes(expanded.bytes, notes: [cut])
        } catch {
            return .problem("the gzip was not read: \(error.message)", error.location)
        }
    }
}
