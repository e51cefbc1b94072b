import APMInspectCore
import Foundation
import ReportInspection
import ReportSources

/// `anonymize`'s pipeline: each input's reports copied with their identifiers replaced, into one file (one input)
/// or a folder (several, a folder, an archive), then a summary of what was replaced on standard output.
package struct AnonymizationRun {
    /// `--salt`: the key of the stand-ins; nil for a random one, so that two runs cannot be correlated.
    package var salt: [UInt8]?
    /// `--format json`: the summary as one JSON object.
    package var json: Bool
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(salt: [UInt8]?, json: Bool, sink: OutputSink) {
        self.salt = salt
        self.json = json
        self.sink = sink
    }

    /// One report to anonymize: its bytes, its name in messages, and whether the user named it (a refusal is then
    /// an error; a file met in a folder or an archive that is not a report is skipped).
    private struct Item {
        var shown: String
        var bytes: [UInt8]
        var named: Bool
    }

    /// Anonymizes `paths` into `output`; true when an input could not be read or copied, or a write failed.
    ///
    /// `output` is a file when one input that is neither a folder nor an archive is given, else a folder (made
    /// when missing); ``outputProblem(_:inputs:)`` is asked first. `inputs` are never written over.
    package func run(_ paths: [String], output: String, protecting inputs: Set<FileIdentity>) -> Bool {
        var summary = AnonymizationSummary(output: output, saltGiven: salt != nil)
        var anonymizer = ReportAnonymizer(salt: salt ?? StandInTable.randomSalt())
        var names = Set<String>()
        // Standard input is read once, first: whether it holds an archive decides between a file and a folder.
        var standardInput: [UInt8]?
        if paths.contains(PathWalker.standardInputArgument) {
            do {
                let bytes = try FileReading.contents(atPath: PathWalker.standardInputPath)
                if bytes.isEmpty {
                    summary.failed(PathWalker.standardInputArgument, message: InputCheck.emptyFileMessage)
                    sink.error(ErrorLine.render(path: "-", location: nil, message: InputCheck.emptyFileMessage))
                } else {
                    standardInput = bytes
                }
            } catch {
                summary.failed(PathWalker.standardInputArgument, message: error.message)
                sink.error(ErrorLine.render(path: "-", location: error.location, message: error.message))
            }
        }
        let folder = Self.writesFolder(paths, standardInput: standardInput)
        if folder, let problem = OutputFolder.prepare(output) {
            sink.error(ErrorLine.render(path: output, location: nil, message: problem))
            return true
        }
        for path in paths {
            if sink.stopped { break }
            let items: [Item]
            if path == PathWalker.standardInputArgument {
                items = standardInput.map { expand(Item(shown: path, bytes: $0, named: true), summary: &summary) } ?? []
            } else {
                items = read(path, summary: &summary)
            }
            for item in items {
                let result = anonymizer.anonymize(item.bytes, path: item.shown)
                guard let copy = result.bytes else {
                    let isSkip = !item.named && result.diagnostics.allSatisfy { $0.code == .anonymizeUnsupported }
                    summary.record(item.shown, result: result, target: nil, skipped: isSkip)
                    if !isSkip { sink.error(result.diagnostics, about: item.shown) }
                    continue
                }
                let target =
                    folder ? output + "/" + Self.outputName(for: item.shown, result: result, taken: &names) : output
                do {
                    try AtomicOutputFile.write(copy, to: target, protecting: inputs)
                    summary.record(item.shown, result: result, target: target, skipped: false)
                } catch {
                    let message = "cannot write the copy: \(error.message)"
                    sink.error(ErrorLine.render(path: target, location: nil, message: message))
                    summary.failed(item.shown, message: message)
                }
            }
        }
        for category in AnonymizedCategory.allCases {
            summary.distinct[category] = anonymizer.table.distinctCount(category)
        }
        sink.out(json ? summary.json() : summary.text())
        return summary.failures > 0
    }

    /// True when the output is a folder: several inputs, or one that is a folder or an archive.
    package static func writesFolder(_ paths: [String], standardInput: [UInt8]?) -> Bool {
        guard paths.count == 1, let path = paths.first else { return true }
        if path == PathWalker.standardInputArgument { return standardInput.map(Self.isArchive) ?? false }
        if PathWalker.isFolder(path) { return true }
        guard FileReading.isRegularFile(atPath: path), let handle = FileHandle(forReadingAtPath: path) else {
            return false
        }
        defer { try? handle.close() }
        return isArchive([UInt8]((try? handle.read(upToCount: 65_536)) ?? Data()))
    }

    private static func isArchive(_ bytes: [UInt8]) -> Bool {
        ArchiveScanner.isArchive(prefix: Array(bytes.prefix(65_536))) || ZipReader.looksLikeZip(bytes)
    }

    /// The files of `path` (its own, or a folder's, walked as `scan` walks them), archives opened.
    private func read(_ path: String, summary: inout AnonymizationSummary) -> [Item] {
        let named = !PathWalker.isFolder(path)
        var items: [Item] = []
        let (files, failures) = PathWalker.files(in: [path]) { note in
            sink.error(ErrorLine.render(path: note.path, location: nil, message: note.message, severity: "note"))
        }
        for failure in failures {
            summary.failed(failure.path, message: failure.message)
            sink.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        for file in files {
            if let problem = InputCheck.problem(atPath: file) {
                summary.failed(file, message: problem)
                sink.error(ErrorLine.render(path: file, location: nil, message: problem))
                continue
            }
            do {
                let bytes = try FileReading.contents(atPath: file)
                items += expand(Item(shown: file, bytes: bytes, named: named), summary: &summary)
            } catch {
                summary.failed(file, message: error.message)
                sink.error(ErrorLine.render(path: file, location: error.location, message: error.message))
            }
        }
        return items
    }

    /// The reports of an archive (tar, tar.gz, zip), each named `ARCHIVE!/member/path`; any other file as it is.
    private func expand(_ item: Item, summary: inout AnonymizationSummary) -> [Item] {
        if ZipReader.looksLikeZip(item.bytes) {
            do {
                let zip = try ZipReader(bytes: item.bytes)
                var members: [Item] = []
                for entry in zip.entries where !entry.isDirectory && entry.isSafePath && !entry.isEncrypted {
                    guard let bytes = try? zip.contents(of: entry), !bytes.isEmpty else { continue }
                    members.append(Item(shown: item.shown + "!/" + entry.name, bytes: bytes, named: false))
                }
                return members
            } catch {
                summary.failed(item.shown, message: error.message)
                sink.error(ErrorLine.render(path: item.shown, location: error.location, message: error.message))
                return []
            }
        }
        guard ArchiveScanner.isArchive(prefix: Array(item.bytes.prefix(65_536))) else { return [item] }
        var members: [Item] = []
        do {
            let findings = try TarReader().read(bytes: item.bytes) { entry in
                guard entry.kind == .file, !entry.skippedForSize, !entry.data.isEmpty else { return }
                members.append(Item(shown: item.shown + "!/" + entry.path, bytes: entry.data, named: false))
            }
            sink.error(findings, about: item.shown)
        } catch {
            let failure = error as? InputError
            let message = failure?.message ?? "cannot read the archive"
            summary.failed(item.shown, message: message)
            sink.error(ErrorLine.render(path: item.shown, location: failure?.location, message: message))
        }
        return members
    }

    /// The copy's name in the output folder: the input's (an archive member's own) name, numbered (`NAME-2.ips`)
    /// when two share it; a decompressed capture loses its `.gz` (`.zhar` becomes `.har`).
    static func outputName(for shown: String, result: AnonymizedReport, taken: inout Set<String>) -> String {
        var base = OutputFolder.baseName(of: shown)
        if result.decompressed {
            if base.lowercased().hasSuffix(".gz") { base.removeLast(3) }
            if base.lowercased().hasSuffix(".zhar") { base = String(base.dropLast(5)) + ".har" }
        }
        guard let dot = base.lastIndex(of: "."), dot > base.startIndex else {
            return OutputFolder.uniqueName(base, suffix: "", taken: &taken)
        }
        return OutputFolder.uniqueName(String(base[..<dot]), suffix: String(base[dot...]), taken: &taken)
    }
}
