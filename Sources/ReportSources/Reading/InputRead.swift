import APMInspectCore
import ReportInspection

/// What one input of a command gave: the inspection of a file, or of each report in an archive, with the archive's
/// own findings.
package struct InputRead: Sendable {
    /// The input as the user named it (`-` for standard input).
    package var shown: String
    /// The inspections held; empty when they were handed out as they were read (``InputReader/stream(_:_:)``).
    package var inspections: [Inspection]
    package var findings: [Diagnostic]
    /// True for an archive: one that holds no report says so.
    package var isArchive: Bool
    /// How many inspections the input gave, held in ``inspections`` or handed out as they were read.
    package var reports: Int
}

extension InputReader {
    /// Reads one input of a walk; a path that gave no file becomes an envelope with its error, in its place.
    package func read(_ input: PathWalker.Input) -> InputRead {
        var inspections: [Inspection] = []
        var read = stream(input) { inspections.append($0) }
        read.inspections = inspections
        return read
    }

    /// Reads one input of a walk as ``read(_:)`` does, handing each inspection to `body` as it is read instead of
    /// holding them: an archive of a thousand reports holds one at a time.
    package func stream(_ input: PathWalker.Input, _ body: (Inspection) -> Void) -> InputRead {
        // Never nil: nothing is deferred.
        read(input, deferringArchives: false, body)
            ?? InputRead(shown: "", inspections: [], findings: [], isArchive: false, reports: 0)
    }

    /// Reads one input of a walk unless it may hold several reports (``read(path:shownAs:deferringArchives:_:)``):
    /// nil then, for ``stream(_:_:)`` to read when the caller's turn for it comes.
    package func readUnlessArchive(_ input: PathWalker.Input) -> InputRead? {
        var inspections: [Inspection] = []
        guard var read = read(input, deferringArchives: true, { inspections.append($0) }) else { return nil }
        read.inspections = inspections
        return read
    }

    private func read(
        _ input: PathWalker.Input,
        deferringArchives: Bool,
        _ body: (Inspection) -> Void
    ) -> InputRead? {
        var first: String?
        var reports = 0
        func counting(_ inspection: Inspection) {
            if first == nil { first = inspection.file }
            reports += 1
            body(inspection)
        }
        let shown: String
        let findings: [Diagnostic]?
        switch input {
        case .file(let file) where file.display == PathWalker.standardInputPath:
            shown = PathWalker.standardInputArgument
            findings = read(
                path: PathWalker.standardInputPath,
                shownAs: shown,
                deferringArchives: deferringArchives,
                counting
            )
        case .file(let file):
            shown = file.display
            findings = read(file, deferringArchives: deferringArchives, counting)
        case .failure(let failure):
            body(inspector.inspect(input))
            return InputRead(shown: failure.path, inspections: [], findings: [], isArchive: false, reports: 1)
        }
        guard let findings else { return nil }
        // From inside an archive: no report, or members named `ARCHIVE!/path`.
        let isArchive = first.map { $0.hasPrefix(shown + "!/") } ?? true
        return InputRead(shown: shown, inspections: [], findings: findings, isArchive: isArchive, reports: reports)
    }
}

extension ReportInspector {
    /// Reads one input of a walk as one report, archives included as they are (`symbolicate`, which reads no
    /// archives); a path that gave no file becomes an envelope with its error, in its place.
    package func inspect(_ input: PathWalker.Input) -> Inspection {
        switch input {
        case .file(let file) where file.display == PathWalker.standardInputPath:
            var inspection = inspect(path: PathWalker.standardInputPath)
            inspection.rename(from: PathWalker.standardInputPath, to: PathWalker.standardInputArgument)
            return inspection
        case .file(let file):
            return inspect(raw: file)
        case .failure(let failure):
            return Inspection(
                file: failure.path,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: "unreadable", message: failure.message, location: nil)
            )
        }
    }
}

extension Inspection {
    /// The envelope of an archive's own findings (`kind` `archive`, no report): JSON output carries them beside the
    /// envelopes of the reports inside, so no finding is only on standard error.
    package static func archive(_ path: String, findings: [Diagnostic]) -> Inspection {
        Inspection(file: path, kind: .archive, diagnostics: findings, report: nil, failure: nil)
    }
}
