import APMInspectCore
import Foundation
import ReportInspection

/// Reads every report inside a tar or tar.gz archive (a sysdiagnose, or any bundle of reports).
///
/// Members are parsed from memory; only a consumer that needs a real file (an SQLite database) gets one, written
/// into the scan's private temporary folder and removed right after.
package struct ArchiveScanner {
    package let inspector: ReportInspector
    package let temporary: TemporaryFolder
    /// Bounds for hostile archives: the one set every command uses (``TarReader/Options``).
    package var options = TarReader.Options()

    package init(inspector: ReportInspector, temporary: TemporaryFolder) {
        self.inspector = inspector
        self.temporary = temporary
    }

    /// Calls `body` with the inspection of each report member, then returns the archive's own findings.
    ///
    /// `shown` names the archive in the output when `path` is not its name (a `/proc/self/fd` path).
    package func scan(archive readPath: String, shownAs shown: String? = nil, _ body: (Inspection) -> Void)
        -> [Diagnostic]
    {
        scan(named: shown ?? readPath, .file(readPath), body)
    }

    /// The same for an archive already in memory: the bytes of a FIFO or other stream, which can be read once only.
    package func scan(bytes: [UInt8], shownAs path: String, _ body: (Inspection) -> Void) -> [Diagnostic] {
        scan(named: path, .bytes(bytes), body)
    }

    /// What a stream (a FIFO, `<(cat x.tar.gz)`) held: an archive, whose members went to `body`, or another file.
    package enum StreamContent {
        /// The archive's own findings.
        case archive([Diagnostic])
        /// The inspection of a stream that is not an archive (or could not be read).
        case file(Inspection)
    }

    /// Reads the stream at `path` once, bounded as any input is (``FileReading/contents(atPath:maxBytes:)``), and
    /// scans it as an archive when it is one, else inspects the bytes taken.
    ///
    /// A FIFO cannot be sniffed and then opened again: the second open waits for a writer that has gone.
    package func scan(stream path: String, shownAs shown: String, _ body: (Inspection) -> Void) -> StreamContent {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: path)
        } catch {
            return .file(
                Inspection(
                    file: shown,
                    kind: .unknown,
                    diagnostics: [],
                    report: nil,
                    failure: Inspection.Failure(
                        code: error.code.rawValue,
                        message: error.message,
                        location: error.location
                    )
                )
            )
        }
        guard Self.isArchive(prefix: Array(bytes.prefix(65_536))) else {
            var inspection = inspector.inspect(bytes: bytes, path: path)
            inspection.rename(from: path, to: shown)
            return .file(inspection)
        }
        return .archive(scan(bytes: bytes, shownAs: shown, body))
    }

    /// True when `prefix` (the first 64 KiB or so) starts a tar, or a gzip whose content starts like a tar.
    package static func isArchive(prefix: [UInt8]) -> Bool {
        if TarReader.isTar(prefix) { return true }
        guard prefix.count > 2, prefix[0] == 0x1F, prefix[1] == 0x8B else { return false }
        // Inflated only as far as the first header, however compressible the first member is.
        return TarReader.isTar(ContentSniffer.inflatedPrefix(of: prefix, count: 512) ?? [])
    }

    /// True when the regular file at `path` is a tar, or a gzip whose content starts like a tar.
    package static func isArchive(atPath path: String) -> Bool {
        // Only regular files: opening a FIFO here would block for a writer and take what the reader is owed.
        guard FileReading.isRegularFile(atPath: path) else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return isArchive(prefix: [UInt8]((try? handle.read(upToCount: 65_536)) ?? Data()))
    }

    /// Where an archive's bytes come from.
    private enum Source {
        case file(String)
        case bytes([UInt8])
    }

    private func scan(named path: String, _ source: Source, _ body: (Inspection) -> Void) -> [Diagnostic] {
        var facts = SysdiagnoseFacts(name: path)
        var diagnostics: [Diagnostic] = []
        do {
            func member(_ entry: TarEntry) {
                guard entry.kind == .file, !entry.skippedForSize, !entry.data.isEmpty else { return }
                let virtual = "\(path)!/\(entry.path)"
                if entry.path.hasSuffix("remotectl_dumpstate.txt") {
                    var updated = facts ?? SysdiagnoseFacts(archive: path)
                    updated.readDumpstate(String(decoding: entry.data, as: UTF8.self))
                    facts = updated
                    return
                }
                guard Self.isReportCandidate(entry) else { return }
                var inspection = inspectMember(entry.data, virtualPath: virtual)
                if case .unrecognised = inspection.report { return }
                if inspection.report == nil, inspection.failure?.code == "empty" { return }
                inspection.source = facts
                body(inspection)
            }
            let reader = TarReader(options: options)
            switch source {
            case .file(let readPath): diagnostics = try reader.read(fileAt: readPath, member)
            case .bytes(let bytes): diagnostics = try reader.read(bytes: bytes, member)
            }
        } catch {
            diagnostics.append(Diagnostic(.error, .scanUnreadableArchive, "cannot read the archive: \(error)", at: nil))
        }
        return diagnostics
    }

    /// Sysdiagnoses hold thousands of files that are not reports (plists, logs); skip what cannot be one.
    private static func isReportCandidate(_ entry: TarEntry) -> Bool {
        let name = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
        if name.hasPrefix("._") { return false }
        let lower = name.lowercased()
        let extensions = [
            ".ips", ".synced", ".crash", ".txt", ".json", ".plsql", ".epsql", ".bgsql", ".gz", ".har", ".zhar",
            ".chlsj", ".chlsx", ".pcap", ".pcapng", ".log",
        ]
        return extensions.contains { lower.hasSuffix($0) } || lower.contains("powerlog")
    }

    private func inspectMember(_ bytes: [UInt8], virtualPath: String) -> Inspection {
        let format = ContentSniffer.format(of: bytes)
        guard format == .sqlite || format == .gzip else {
            return inspector.inspect(bytes: bytes, path: virtualPath)
        }
        // SQLite needs a real file: write it privately, read it, remove it.
        let file = temporary.makeFile(named: virtualPath.split(separator: "/").last.map(String.init) ?? "member")
        // Created exclusively (O_EXCL, mode 0600) inside the private folder, as decompressed databases are: a file
        // planted under the name is never written through.
        do {
            try TemporaryFiles.write(bytes, toNewFile: file)
        } catch {
            return Inspection(
                file: virtualPath,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(
                    code: "unreadable",
                    message: "cannot write a temporary copy: \(error.message)",
                    location: nil
                )
            )
        }
        // Removed only once this scan made it: a failed exclusive create leaves what was there alone.
        defer { TemporaryFiles.removeFile(file) }
        var inspection = inspector.inspect(path: file)
        // The temporary copy is gone once this returns: name the member it was made from instead.
        inspection.rename(from: file, to: virtualPath)
        return inspection
    }
}
