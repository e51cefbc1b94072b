import APMInspectCore
import ReportInspection

/// What one input of a command gave: the inspection of a file, or of each report in an archive, with the archive's
/// own findings.
package struct InputRead: Sendable {
    /// The input as the user named it (`-` for standard input).
    package var shown: String
    package var inspections: [Inspection]
    package var findings: [Diagnostic]
    /// True for an archive: one that holds no report says so.
    package var isArchive: Bool
}

extension InputReader {
    /// Reads one input of a walk; a path that gave no file becomes an envelope with its error, in its place.
    package func read(_ input: PathWalker.Input) -> InputRead {
        var inspections: [Inspection] = []
        let shown: String
        let findings: [Diagnostic]
        switch input {
        case .file(let file) where file.display == PathWalker.standardInputPath:
            shown = PathWalker.standardInputArgument
            findings = read(path: PathWalker.standardInputPath, shownAs: shown) { inspections.append($0) }
        case .file(let file):
            shown = file.display
            findings = read(file) { inspections.append($0) }
        case .failure(let failure):
            return InputRead(
                shown: failure.path,
                inspections: [inspector.inspect(input)],
                findings: [],
                isArchive: false
            )
        }
        // From inside an archive: no report, or members named `ARCHIVE!/path`.
        let isArchive = inspections.first.map { $0.file.hasPrefix(shown + "!/") } ?? true
        return InputRead(shown: shown, inspections: inspections, findings: findings, isArchive: isArchive)
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
