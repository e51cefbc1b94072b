import APMInspectCore
import ReportInspection

/// Reads one input of a command, whatever it is: a report file, a database, a FIFO or standard input, or a tar or
/// tar.gz archive of reports (a sysdiagnose) read member by member with the archive limits every command uses
/// (``TarReader/Options``).
///
/// `scan`, `report` and `inspect` read their inputs through it, so one file gives the same inspections in each, and
/// each reads archives.
package struct InputReader: Sendable {
    package let inspector: ReportInspector
    package let temporary: TemporaryFolder

    package init(inspector: ReportInspector, temporary: TemporaryFolder) {
        self.inspector = inspector
        self.temporary = temporary
    }

    /// Reads a path kept as bytes; a name that is not UTF-8 is read through `/proc/self/fd` and shown escaped.
    ///
    /// - Returns: The archive's own findings (none for a file that is not an archive).
    package func read(_ raw: RawPath, _ body: (Inspection) -> Void) -> [Diagnostic] {
        read(raw, deferringArchives: false, body) ?? []
    }

    /// Reads a path kept as bytes as ``read(_:_:)`` does, unless `deferringArchives` and it may hold several
    /// reports (an archive, or a stream that may be one): nil then, with nothing handed to `body`.
    package func read(_ raw: RawPath, deferringArchives: Bool, _ body: (Inspection) -> Void) -> [Diagnostic]? {
        let opened = raw.withOpenablePath { path in
            read(path: path, shownAs: raw.display, deferringArchives: deferringArchives, body)
        }
        switch opened {
        case .success(let findings):
            return findings
        case .failure(let failure):
            body(
                Inspection(
                    file: raw.display,
                    kind: .unknown,
                    diagnostics: [],
                    report: nil,
                    failure: Inspection.Failure(code: "unreadable", message: failure.message, location: nil)
                )
            )
            return []
        }
    }

    /// Calls `body` with the inspection of the file at `path`, or of each report inside it when it is an archive;
    /// `shown` names it in the output when `path` is not its name (standard input, a `/proc/self/fd` path).
    ///
    /// - Returns: The archive's own findings (none for a file that is not an archive).
    package func read(path: String, shownAs shown: String? = nil, _ body: (Inspection) -> Void) -> [Diagnostic] {
        read(path: path, shownAs: shown, deferringArchives: false, body) ?? []
    }

    /// The same, unless `deferringArchives` and the file may hold several reports: nil then, the file left unread
    /// past its first 64 KiB, so that a caller printing in input order reads it when its turn comes, streaming its
    /// reports instead of holding them (`inspect`).
    ///
    /// A FIFO or standard input is left too: it cannot be sniffed without being read, and may be an archive.
    package func read(
        path: String,
        shownAs shown: String? = nil,
        deferringArchives: Bool,
        _ body: (Inspection) -> Void
    ) -> [Diagnostic]? {
        let display = shown ?? path
        let inspected: Inspection
        if FileReading.isRegularFile(atPath: path) {
            // Opened and read once: the first 64 KiB say whether it is an archive (streamed from the file) or a
            // database (opened where it lies); anything else is inspected from the bytes already read.
            let read = try? FileReading.contents(atPath: path, stoppingAfter: 65_536) {
                ArchiveScanner.isArchive(prefix: $0) || inspector.mayInspectInPlace(head: $0)
            }
            switch read {
            case .whole(let bytes)?:
                inspected = inspector.inspect(bytes: bytes, path: path)
            case .stopped(let prefix)? where ArchiveScanner.isArchive(prefix: prefix):
                if deferringArchives { return nil }
                return ArchiveScanner(inspector: inspector, temporary: temporary).scan(
                    archive: path,
                    shownAs: display,
                    body
                )
            case .stopped?, nil:
                // A database, or a file that could not be read: the inspector says which, in its own words.
                inspected = inspector.inspect(path: path)
            }
        } else {
            if deferringArchives { return nil }
            // A FIFO (`scan <(cat x.tar.gz)`) is read once; its bytes are scanned as an archive when they are one.
            switch ArchiveScanner(inspector: inspector, temporary: temporary).scan(stream: path, shownAs: display, body)
            {
            case .archive(let findings):
                return findings
            case .file(let inspection):
                inspected = inspection
            }
        }
        var inspection = inspected
        if display != path { inspection.rename(from: path, to: display) }
        // Files of an extracted sysdiagnose folder carry its facts too. The byte search first: splitting every path
        // into Characters cost more than reading a small file.
        if display.containsBytes("sysdiagnose_"),
            let folder = display.split(separator: "/").first(where: { $0.hasPrefix("sysdiagnose_") })
        {
            inspection.source = SysdiagnoseFacts(name: String(folder))
        }
        // A crash log of an Xcode Organizer crash point carries its bundle's and filter's facts.
        if inspection.report != nil, display.containsBytes(".xccrashpoint/") {
            inspection.crashpoint = XcodeCrashpointFacts.of(logAt: path)
        }
        body(inspection)
        return []
    }
}
