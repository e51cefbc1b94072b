import Foundation
import Testing

/// Byte-for-byte comparison of a renderer's output with a reviewed file in `golden/`.
///
/// A golden file is the output someone read and judged right, so a change to a view shows up as a diff to review
/// rather than slipping through assertions that only look for a few words. On a mismatch the actual output goes to
/// a temporary folder, never beside the goldens, so a failed run leaves the reviewed files as they were.
///
/// To change the goldens on purpose: `APM_UPDATE_GOLDEN=1 swift test --filter RenderingGoldenTests`, then read
/// `git diff Tests/ReportRenderingTests/golden` before committing. A run that rewrites a file still fails, and any
/// run with the variable set under CI (`CI` set) fails, so a pipeline can never pass by rewriting its own goldens.
enum Golden {
    /// `Tests/ReportRenderingTests/`.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The package root: inputs are read from `Corpus/` below it and named by paths relative to it.
    static let repositoryRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let folder = testsFolder.appendingPathComponent("golden")
    /// Where actual outputs of failed comparisons are written.
    static let actualFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "apm-inspect-golden-actual"
    )

    static var updating: Bool { ProcessInfo.processInfo.environment["APM_UPDATE_GOLDEN"] == "1" }
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    /// Checks `actual` against `golden/<name>`; with `APM_UPDATE_GOLDEN=1`, rewrites the file and fails.
    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let goldenURL = folder.appendingPathComponent(name)
        let actualBytes = Data(actual.utf8)
        let expected = FileManager.default.contents(atPath: goldenURL.path)
        if updating {
            if inCI {
                Issue.record(
                    "APM_UPDATE_GOLDEN=1 under CI: goldens are rewritten and reviewed by a person, never by CI",
                    sourceLocation: sourceLocation
                )
            }
            guard expected != actualBytes else { return }
            do {
                try actualBytes.write(to: goldenURL)
                let message =
                    "rewrote golden/\(name) (APM_UPDATE_GOLDEN=1): review `git diff \(goldenURL.path)`, then run the "
                    + "tests again without the variable"
                Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            } catch {
                Issue.record("cannot write golden/\(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            let written = writeActual(actualBytes, name: name)
            let message =
                "no golden file golden/\(name); the output is in \(written); to record it: "
                + "APM_UPDATE_GOLDEN=1 swift test --filter RenderingGoldenTests, then review it"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
            return
        }
        guard expected != actualBytes else { return }
        let written = writeActual(actualBytes, name: name)
        let message =
            "output differs from golden/\(name) (first difference at byte \(firstDifference(expected, actualBytes))); "
            + "actual output: \(written); see `diff -u \(goldenURL.path) \(written)`. If the change is intended, "
            + "rerun with APM_UPDATE_GOLDEN=1 and review the diff"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    private static func writeActual(_ bytes: Data, name: String) -> String {
        let url = actualFolder.appendingPathComponent(name)
        do {
            try FileManager.default.createDirectory(at: actualFolder, withIntermediateDirectories: true)
            try bytes.write(to: url)
            return url.path
        } catch {
            return "(not written: \(error))"
        }
    }

    private static func firstDifference(_ a: Data, _ b: Data) -> Int {
        zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
    }
}
