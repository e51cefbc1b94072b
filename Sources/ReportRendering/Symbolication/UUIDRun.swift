import APMInspectCore
import FleetReport
import ReportSources
import Symbolication

/// `apm-inspect uuid`: the UUID and architecture of every Mach-O slice under the paths given, as
/// `dwarfdump --uuid` prints them, so a user can tell which dSYM goes with which report before symbolicating.
///
/// The files are found the way `--dsym` finds them (by content: folders, `.dSYM` bundles, Mach-O files thin or
/// fat, zips of dSYMs such as App Store Connect's appDsyms.zip), so what this lists is what `--dsym` would use.
package struct UUIDRun {
    package var paths: [String]
    package var json: Bool
    package let sink: OutputSink

    package init(paths: [String], json: Bool, sink: OutputSink) {
        self.paths = paths
        self.json = json
        self.sink = sink
    }

    /// One slice found, in the order found.
    package struct Row: Encodable, Equatable {
        /// `4C4C44A9-5555-3144-A1F6-5DA1EEB71E0F`, as `dwarfdump --uuid` prints it.
        package var uuid: String
        package var arch: String
        /// The Mach-O file; for a zip, the archive.
        package var path: String
        /// The entry inside a zip archive; absent for a file on disk.
        package var member: String?
    }

    /// What `--format json` prints: the slices, and what could not be read with its code.
    package struct Document: Encodable {
        package var slices: [Row]
        package var diagnostics: [FleetFinding]
    }

    /// Lists the slices; false when a path could not be read or held no Mach-O slice (exit status 1), after
    /// listing what the other paths hold.
    package func run() -> Bool {
        var rows: [Row] = []
        var findings: [FleetFinding] = []
        var complete = true
        for path in paths {
            let (entries, located) = listing(of: path)
            for entry in entries {
                rows.append(entry)
                if !json { sink.out(Self.line(rows[rows.count - 1])) }
            }
            if entries.isEmpty { complete = false }
            // "none found" adds nothing to a finding that says why.
            let said = located.contains { $0.diagnostic.code != .dsymNoneFound && $0.diagnostic.severity != .note }
            for finding in located where !(said && finding.diagnostic.code == .dsymNoneFound) {
                findings.append(FleetFinding(file: finding.path, diagnostic: finding.diagnostic))
                if finding.diagnostic.severity == .error { complete = false }
                // A note (a zip without dSYMs, a folder entry skipped) matters when nothing was found.
                guard finding.diagnostic.severity != .note || entries.isEmpty else { continue }
                sink.error(
                    ErrorLine.render(
                        path: finding.path,
                        location: nil,
                        message: finding.diagnostic.message,
                        severity: finding.diagnostic.severity.rawValue
                    )
                )
            }
        }
        if json {
            let document = Document(slices: rows, diagnostics: findings)
            do {
                sink.out(try SortedJSONEncoder(pretty: true).encode(document) + "\n")
            } catch {
                sink.error("apm-inspect uuid: error: the list could not be written as JSON: \(error)")
                return false
            }
        }
        return complete
    }

    /// The slices and findings of one path; `-` is standard input, spooled into a private temporary folder (a
    /// Mach-O file or a zip is read by offsets, which a pipe does not give) removed before returning, and named `-`.
    private func listing(of path: String) -> (entries: [Row], findings: [DSYMStore.LocatedFinding]) {
        guard path == PathWalker.standardInputArgument else {
            let (entries, located) = DSYMStore.listing(of: RawPath(path))
            return (entries.map(Self.row), located)
        }
        let spool: String
        do {
            let bytes = try FileReading.contents(atPath: PathWalker.standardInputPath)
            spool = try TemporaryFiles.makeFolder(prefix: "apm-inspect-uuid")
            try TemporaryFiles.write(bytes, toNewFile: spool + "/stdin")
        } catch {
            return ([], [DSYMStore.LocatedFinding(path: path, diagnostic: .input(.error, error))])
        }
        defer { TemporaryFiles.remove(spool) }
        let (entries, located) = DSYMStore.listing(of: RawPath(spool + "/stdin"))
        func named(_ text: String) -> String {
            text.hasPrefix(spool + "/stdin") ? path + text.dropFirst(spool.count + 6) : text
        }
        let rows = entries.map(Self.row).map { row in
            var row = row
            row.path = named(row.path)
            return row
        }
        let findings = located.map { finding in
            var finding = finding
            finding.path = named(finding.path)
            finding.diagnostic.message = finding.diagnostic.message.replacingOccurrences(
                of: spool + "/stdin",
                with: path
            )
            return finding
        }
        return (rows, findings)
    }

    static func row(_ entry: DSYMStore.Entry) -> Row {
        let uuid = MachOUUID(string: entry.slice.uuid)?.description ?? entry.slice.uuid.uppercased()
        switch entry.location {
        case .file(let path):
            return Row(uuid: uuid, arch: entry.slice.arch, path: path.display, member: nil)
        case .zipEntry(let archive, _, let name):
            return Row(uuid: uuid, arch: entry.slice.arch, path: archive.display, member: name)
        case .dyldCacheImage(let cache, let name):
            return Row(uuid: uuid, arch: entry.slice.arch, path: cache.display, member: name)
        }
    }

    /// `UUID: <UUID> (<arch>) <path>`, a zip's entry after its archive and a colon; escaped for a terminal.
    static func line(_ row: Row) -> String {
        var place = row.path
        if let member = row.member { place += ":" + member }
        return "UUID: \(row.uuid) (\(TerminalText.escaped(row.arch))) \(TerminalText.escaped(place))\n"
    }
}
