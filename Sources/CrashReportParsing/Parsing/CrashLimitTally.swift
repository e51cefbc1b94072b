import APMInspectCore
import ByteAccess

/// What the ``CrashParseLimits`` left out of one report, counted while reading and reported once at the end.
///
/// A class so that the readers' non-mutating helpers (which fill frames and images in place) can count.
final class CrashLimitTally {
    let limits: CrashParseLimits
    /// Frames modelled so far, across threads.
    private(set) var totalFrames = 0
    private(set) var framesOverThreadLimit = 0
    private(set) var framesOverTotalLimit = 0
    private(set) var threadsSkipped = 0
    private(set) var framesOfSkippedThreads = 0
    private(set) var imagesSkipped = 0
    private(set) var stringsCut = 0
    private(set) var unknownKept = 0
    private(set) var unknownBytesKept = 0
    private(set) var unknownDropped = 0
    private(set) var unknownBytesDropped = 0

    init(_ limits: CrashParseLimits) {
        self.limits = limits
    }

    /// True when anything was left out.
    var cutSomething: Bool {
        framesOverThreadLimit + framesOverTotalLimit + threadsSkipped + imagesSkipped + stringsCut + unknownDropped > 0
    }

    /// How many of `offered` more frames a thread already holding `held` may keep; the rest are counted as skipped.
    func admitFrames(_ offered: Int, held: Int) -> Int {
        let perThread = max(0, limits.maxFramesPerThread - held)
        let total = max(0, limits.maxTotalFrames - totalFrames)
        let kept = min(offered, perThread, total)
        let skipped = offered - kept
        if skipped > 0 {
            if perThread < total { framesOverThreadLimit += skipped } else { framesOverTotalLimit += skipped }
        }
        totalFrames += kept
        return kept
    }

    /// True when one more thread may be modelled (the caller then models it).
    func admitThread(held: Int) -> Bool {
        if held < limits.maxThreads { return true }
        threadsSkipped += 1
        return false
    }

    func skipFramesOfSkippedThread(_ count: Int) {
        framesOfSkippedThreads += count
    }

    func skipThreads(_ count: Int) {
        threadsSkipped += count
    }

    /// True when one more entry of `bytes` bytes (key and value text) may be kept in unknownKeys.
    ///
    /// Otherwise it is counted as dropped. Once one entry is refused every later one is, so what is kept is the
    /// first ones.
    func admitUnknown(bytes: Int) -> Bool {
        let fits =
            unknownDropped == 0 && unknownKept < limits.maxUnknownEntries
            && bytes <= limits.maxUnknownBytes - unknownBytesKept
        if fits {
            unknownKept += 1
            unknownBytesKept += bytes
        } else {
            unknownDropped += 1
            unknownBytesDropped += bytes
        }
        return fits
    }

    func skipImages(_ count: Int) {
        imagesSkipped += count
    }

    /// `text` cut to ``CrashParseLimits/maxStringBytes`` at a character boundary, counted when cut.
    ///
    /// `raw` is the value's bytes as written (JSON escapes included), checked before anything is decoded so that a
    /// huge string is never copied whole; a cut never splits an escape sequence.
    func cappedString(raw: BorrowedBytes, hasEscapes: Bool) -> String {
        let limit = limits.maxStringBytes
        guard raw.count > limit else { return JSONElement.decodedString(rawBytes: raw) }
        stringsCut += 1
        var cut = limit
        // Back to the start of a UTF-8 sequence.
        var steps = 0
        while cut > 0, steps < 4, raw[unchecked: cut] & 0xC0 == 0x80 {
            cut -= 1
            steps += 1
        }
        if hasEscapes {
            // Walk the escapes up to the cut and stop before one it would split (`\n`, `\u00e9`, a surrogate pair).
            var k = 0
            var safe = 0
            while k < cut {
                if raw[unchecked: k] == 0x5C {
                    var length = 2
                    if k + 5 < raw.count, raw[unchecked: k + 1] == 0x75 {
                        let high =
                            raw[unchecked: k + 2] | 0x20 == 0x64 && (0x38...0x62).contains(raw[unchecked: k + 3] | 0x20)
                        length = high ? 12 : 6
                    }
                    if k + length > cut { break }
                    k += length
                } else {
                    k += 1
                }
                safe = k
            }
            cut = safe
        }
        return JSONElement.decodedString(rawBytes: raw.prefix(cut))
    }

    /// One diagnostic per limit that cut something.
    var diagnostics: [Diagnostic] {
        var found: [Diagnostic] = []
        func add(_ code: Diagnostic.Code, _ message: String) {
            found.append(Diagnostic(.warning, code, message, at: nil))
        }
        if framesOverThreadLimit > 0 {
            add(
                .crashThreadFramesTruncated,
                "\(framesOverThreadLimit) frame(s) past the limit of \(limits.maxFramesPerThread) frames per thread "
                    + "were counted, not read"
            )
        }
        if framesOverTotalLimit > 0 {
            add(
                .crashFramesTruncated,
                "\(framesOverTotalLimit) frame(s) past the limit of \(limits.maxTotalFrames) frames in all were "
                    + "counted, not read"
            )
        }
        if threadsSkipped > 0 {
            let frames = framesOfSkippedThreads > 0 ? " (with their \(framesOfSkippedThreads) frame(s))" : ""
            add(
                .crashThreadListTruncated,
                "\(threadsSkipped) thread(s) past the limit of \(limits.maxThreads) threads were counted, not read"
                    + frames
            )
        }
        if imagesSkipped > 0 {
            add(
                .crashImageListTruncated,
                "\(imagesSkipped) binary image(s) past the limit of \(limits.maxBinaryImages) were counted, not read"
            )
        }
        if stringsCut > 0 {
            add(
                .crashStringTruncated,
                "\(stringsCut) string(s) longer than \(limits.maxStringBytes) bytes were cut to that length"
            )
        }
        if unknownDropped > 0 {
            add(
                .crashUnknownKeysTruncated,
                "\(unknownDropped) unknown line(s) or field(s) (\(unknownBytesDropped) bytes) past the limit of "
                    + "\(limits.maxUnknownEntries) entries or \(limits.maxUnknownBytes) bytes kept in unknownKeys were "
                    + "dropped; the first \(unknownKept) were kept"
            )
        }
        return found
    }
}
