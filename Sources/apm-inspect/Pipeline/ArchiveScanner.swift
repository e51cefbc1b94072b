import APMInspectCore
import Foundation

/// Reads every report inside a tar or tar.gz archive (a sysdiagnose, or any bundle of reports).
///
/// Members are parsed from memory; only a consumer that needs a real file (an SQLite database) gets one, written
/// into the scan's private temporary folder and removed right after.
struct ArchiveScanner {
    let inspector: FileInspector
    let temporary: TemporaryFolder
    /// Bounds for hostile archives, relative to the input: reports are small, PowerLog databases stay well
    /// under 256 MiB, and sample sysdiagnoses expand about 5:1 where a bomb reaches 1000:1 (see docs/scan.md).
    var options = TarReader.Options(
        maxTotalBytes: 8 << 30,
        maxEntries: 500_000,
        maxEntryBytes: 256 << 20,
        maxExpansionRatio: 100,
        ratioFloorBytes: 64 << 20
    )

    /// Calls `body` with the inspection of each report member, then returns the archive's own findings.
    ///
    /// `shown` names the archive in the output when `path` is not its name (a `/proc/self/fd` path).
    func scan(archive readPath: String, shownAs shown: String? = nil, _ body: (Inspection) -> Void) -> [Diagnostic] {
        let path = shown ?? readPath
        var facts = SysdiagnoseFacts(name: path)
        var diagnostics: [Diagnostic] = []
        do {
            diagnostics = try TarReader(options: options).read(fileAt: readPath) { entry in
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
        } catch {
            diagnostics.append(Diagnostic(.error, "cannot read the archive: \(error)", at: nil))
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
        defer { try? FileManager.default.removeItem(atPath: file) }
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            return Inspection(
                file: virtualPath,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: "unreadable", message: "cannot write a temporary copy", location: nil)
            )
        }
        var inspection = inspector.inspect(path: file)
        // The temporary copy is gone once this returns: name the member it was made from instead.
        inspection.rename(from: file, to: virtualPath)
        return inspection
    }
}
