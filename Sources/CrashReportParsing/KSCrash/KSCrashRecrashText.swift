import APMInspectCore
import ByteAccess

/// KSCrash's Apple-format text of a crash whose handler crashed while writing the report.
///
/// KSCrash's AppleFmt filter (and the reporters built on KSCrash that format the same way) writes the report of the
/// crash first, in Apple's layout, then a line `Handler crashed while reporting:` and the report of the crash in the
/// handler: its own `Exception Type:`, `Exception Codes:`, `Crashed Thread:` (or `Triggered by Thread:`), the crashed
/// thread's backtrace and registers, and a `Recrash Diagnosis:`. Read as one report, the second part's crashed thread,
/// signal and frames replaced the first's, and the two reports' exception codes were joined. The file is split at that
/// line: the part before it is the report, the part after it a report of its own, ``CrashReport/recrashReport``.
enum KSCrashRecrashText {
    /// Where the recrash report starts in a text body.
    struct Split: Equatable {
        /// The byte offset where the marker line starts: the main report is the bytes before it.
        let markerStart: Int
        /// The byte offset after the marker line's line break: the recrash report is the bytes from there.
        let recrashStart: Int
        /// The marker line's number, counted from 0 at the body's first line.
        let markerLine: Int
    }

    /// The line that starts the recrash report, as KSCrash writes it.
    static let marker: StaticString = "Handler crashed while reporting:"

    /// The first line of `body` that is the marker alone (trailing blanks and a carriage return allowed), at the
    /// start of a line; nil when there is none.
    static func locate(in body: [UInt8]) -> Split? {
        body.withBorrowedBytes { buffer in
            let all = TextBytes(buffer)
            var from = 0
            while let found = all.range(of: marker, from: from) {
                from = found.upperBound
                guard found.lowerBound == 0 || all[found.lowerBound - 1] == 0x0A else { continue }
                var end = found.upperBound
                while end < all.count, TextBytes.isBlank(all[end]) || all[end] == 0x0D { end += 1 }
                guard end == all.count || all[end] == 0x0A else { continue }
                var line = 0
                var k = 0
                while let newline = all.firstIndex(of: 0x0A, from: k), newline < found.lowerBound {
                    line += 1
                    k = newline + 1
                }
                return Split(markerStart: found.lowerBound, recrashStart: min(end + 1, all.count), markerLine: line)
            }
            return nil
        }
    }

    /// Reads the recrash part (`body` from ``Split/recrashStart``) as a report of its own, with its findings.
    ///
    /// The part has no header and no binary images: frames are matched to `main`'s images and its app, and the
    /// images are not repeated in the recrash report.
    static func readRecrash(
        _ body: [UInt8],
        split: Split,
        main: CrashReport,
        origin: TextOrigin,
        limits: CrashParseLimits
    ) -> (report: CrashReport, diagnostics: [Diagnostic]) {
        var reader = CrashTextReader(
            format: main.sourceFormat,
            header: nil,
            origin: TextOrigin(
                byteOffset: origin.byteOffset + split.recrashStart,
                line: origin.line + split.markerLine + 1
            ),
            limits: limits,
            isSection: true
        )
        var recrash = reader.read(body: Array(body[split.recrashStart...]))
        recrash.deriveFacts(asPartOf: main)
        let diagnostics = reader.diagnostics.map { finding in
            var finding = finding
            finding.message = "in the recrash report: " + finding.message
            return finding
        }
        return (recrash, diagnostics)
    }
}
