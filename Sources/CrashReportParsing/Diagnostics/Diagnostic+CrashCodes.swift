import APMInspectCore

// The codes of the crash report readers: Apple's crash reports as `.ips` JSON or text (`crash.`), KSCrash reports
// (`kscrash.`), system watchdog stackshots (`watchdog.`) and resource reports (`resource.`). Each doc comment says
// what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    // MARK: - Apple crash reports

    /// A JSON value did not have the type its field reads; the field stays empty, and the value is kept in
    /// unknownKeys where it could be, so nothing the report said is lost.
    /// Example: expected a string for 'procName'; kept the value verbatim in unknownKeys
    package static let crashFieldWrongType = Self("crash.field-wrong-type")
    /// A known key appears twice in the body; the first is read, and the later value is kept in unknownKeys.
    /// Example: key "pid" is repeated; the first is read and this value is kept in unknownKeys
    package static let crashRepeatedKey = Self("crash.repeated-key")
    /// A known key is spelled with JSON escapes, which its field does not match: the value is kept in unknownKeys
    /// rather than read, so the field may look missing.
    /// Example: key "pid" is spelled with escapes, which its field does not read; the value is kept in unknownKeys
    package static let crashEscapedKey = Self("crash.escaped-key")
    /// `faultingThread` names a thread past the list: no thread is marked crashed from it.
    /// Example: faultingThread 7 is past the 3 threads listed
    package static let crashFaultingThreadOutOfRange = Self("crash.faulting-thread-out-of-range")
    /// The header names a crashed thread the text does not list; the thread marked Crashed is used instead.
    /// Example: the header names thread 4 as crashed, but it is not listed; thread 0 is marked Crashed, so that one is used
    package static let crashCrashedThreadNotListed = Self("crash.crashed-thread-not-listed")
    /// The file has an `.ips` header line and nothing after it: the report holds only what the header says.
    /// Example: the report has a header but no body
    package static let crashHeaderWithoutBody = Self("crash.header-without-body")
    /// A text report has header fields but no exception, threads or binary images: it is marked partial.
    /// Example: the report has only its header: no exception, threads or binary images
    package static let crashHeaderOnly = Self("crash.header-only")
    /// The report has no header, or starts in the middle (a pasted excerpt): it is marked partial, and what is
    /// missing cannot be told from what was cut.
    /// Example: the report is a fragment: no header, or it starts in the middle
    package static let crashFragment = Self("crash.fragment")
    /// The file stops before a whole report's end (no Binary Images section, or a last image line cut): the
    /// report is marked partial, and frames may not be matched to images.
    /// Example: the report ends at line 42 without a Binary Images section: the file looks cut short, and its frames cannot be matched to images
    package static let crashCutShort = Self("crash.cut-short")
    /// A text line longer than the reader reads; only its start was read, so a value on it may be cut.
    /// Example: line 12 is 70000 bytes long; only its first 65536 bytes were read (lines are cut at 65536 bytes)
    package static let crashLineTooLong = Self("crash.line-too-long")
    /// A line inside a thread's backtrace is not a frame; it is kept in unknownKeys rather than dropped.
    /// Example: a line in a backtrace is not a frame; kept in unknownKeys
    package static let crashBacktraceLineNotFrame = Self("crash.backtrace-line-not-frame")
    /// A date or time is not in a format the reader knows; the report has no date, and the text is kept as written.
    /// Example: Date/Time: yesterday at noon: a date/time that is not in a known format; kept verbatim
    package static let crashUnknownDateFormat = Self("crash.unknown-date-format")
    /// Lines of a text report matched no known field, block or frame; they are kept verbatim in unknownKeys.
    /// Example: 3 line(s) matched no known field, block or frame; kept verbatim in unknownKeys
    package static let crashUnparsedLines = Self("crash.unparsed-lines")
    /// A thread had more frames than the per-thread limit: the rest were counted, not read, and the report is partial.
    /// Example: 12 frame(s) past the limit of 100000 frames per thread were counted, not read
    package static let crashThreadFramesTruncated = Self("crash.thread-frames-truncated")
    /// The report had more frames in all than the limit: the rest were counted, not read, and the report is partial.
    /// Example: 12 frame(s) past the limit of 1000000 frames in all were counted, not read
    package static let crashFramesTruncated = Self("crash.frames-truncated")
    /// The report had more threads than the limit: the rest were counted, not read, and the report is partial.
    /// Example: 2 thread(s) past the limit of 10000 threads were counted, not read (with their 40 frame(s))
    package static let crashThreadListTruncated = Self("crash.thread-list-truncated")
    /// The report had more binary images than the limit: the rest were counted, not read; frames in them have no
    /// image.
    /// Example: 5 binary image(s) past the limit of 100000 were counted, not read
    package static let crashImageListTruncated = Self("crash.image-list-truncated")
    /// Strings longer than the limit were cut to it, so a long value (a reason, a path) is not whole.
    /// Example: 1 string(s) longer than 65536 bytes were cut to that length
    package static let crashStringTruncated = Self("crash.string-truncated")
    /// More unknown lines or fields than unknownKeys keeps: the later ones were dropped.
    /// Example: 4 unknown line(s) or field(s) (120 bytes) past the limit of 10000 entries or 1048576 bytes kept in unknownKeys were dropped; the first 10000 were kept
    package static let crashUnknownKeysTruncated = Self("crash.unknown-keys-truncated")

    // MARK: - KSCrash

    /// The KSCrash report is not strict JSON and was read leniently: it is marked partial, since a repair may
    /// have guessed.
    /// Example: the report is not strict JSON: it was read leniently (2 repair(s))
    package static let kscrashLenientJSON = Self("kscrash.lenient-json")
    /// The file holds more than one JSON value; the first KSCrash report among them was read, the rest ignored.
    /// Example: more than one JSON value: the first KSCrash report was read
    package static let kscrashSeveralValues = Self("kscrash.several-values")
    /// A value has a JSON type its field does not read (an object, an array, a number expected); it was skipped,
    /// or an empty entry stands in for it.
    /// Example: expected an array of frames; the value was skipped
    package static let kscrashWrongType = Self("kscrash.wrong-type")
    /// The file holds only the recrash report (the crash handler crashed before writing the main one); it was read
    /// as the report and is incomplete.
    /// Example: the file holds only a recrash report (the crash handler crashed before the main report was written): that report was read, and is incomplete
    package static let kscrashRecrashOnly = Self("kscrash.recrash-only")
    /// The crash handler crashed while writing the report; its own report is kept in a Recrash Report block.
    /// Example: the crash handler crashed while writing this report: its own report (recrash_report) is kept verbatim and summed up in the Recrash Report block
    package static let kscrashRecrash = Self("kscrash.recrash")
    /// KSCrash's Apple-format text holds, after `Handler crashed while reporting:`, the report of a crash in the crash
    /// handler: the report is read from the text before that line, the handler's report after it as `recrashReport`,
    /// and the report is marked partial.
    /// Example: the crash handler crashed while writing this report (line 531: Handler crashed while reporting): the report is read from the text before that line, and the handler's own report after it as recrashReport; this report may be incomplete
    package static let kscrashRecrashText = Self("kscrash.recrash-text")
    /// KSCrash marked the report incomplete (writing stopped part way): it is marked partial.
    /// Example: KSCrash marked the report incomplete: writing it stopped part way
    package static let kscrashIncomplete = Self("kscrash.incomplete")
    /// The timestamp is in no format the reader knows; the report has no date.
    /// Example: the timestamp is not a date this reader knows (ISO 8601, or epoch seconds or µs)
    package static let kscrashUnknownTimestamp = Self("kscrash.unknown-timestamp")
    /// Binary images without a readable load address were skipped: frames in them are not matched to an image.
    /// Example: 2 binary image(s) without a readable image_addr were skipped
    package static let kscrashImageWithoutAddress = Self("kscrash.image-without-address")
    /// A hang report lacks its hang block: start, end and duration are unknown.
    /// Example: a hang report without its hang block: start, end and duration are unknown
    package static let kscrashHangBlockMissing = Self("kscrash.hang-block-missing")
    /// The hang's start or end time is missing: its duration is unknown.
    /// Example: the hang lacks a start or an end time: its duration is unknown
    package static let kscrashHangTimeMissing = Self("kscrash.hang-time-missing")
    /// The hang ends before it starts: its duration is unknown rather than negative.
    /// Example: the hang ends before it starts: its duration is unknown
    package static let kscrashHangEndsBeforeStart = Self("kscrash.hang-ends-before-start")
    /// A profile report lacks its profile block: there are no samples.
    /// Example: a profile report without its profile block
    package static let kscrashProfileBlockMissing = Self("kscrash.profile-block-missing")
    /// The profile's time units are not ones the reader knows: its times are left out rather than guessed.
    /// Example: time units this reader does not know (fortnights): the profile's times are left out
    package static let kscrashUnknownTimeUnits = Self("kscrash.unknown-time-units")
    /// Profile samples name frames past the profile's frame table; those frames are left out of the samples.
    /// Example: 3 sample frame index(es) name no frame of the profile's table: left out
    package static let kscrashSampleFrameOutOfRange = Self("kscrash.sample-frame-out-of-range")
    /// Profile samples without a frame list were skipped.
    /// Example: 2 sample(s) without a frame list were skipped
    package static let kscrashSampleWithoutFrames = Self("kscrash.sample-without-frames")
    /// The profile had more samples than are kept: the rest were counted.
    /// Example: 100 sample(s) past the limit were counted, not kept
    package static let kscrashSamplesTruncated = Self("kscrash.samples-truncated")
    /// A termination whose reason the reader does not know is read as a crash, which may not be what it was.
    /// Example: a termination whose reason this reader does not know (none): read as a crash
    package static let kscrashUnknownTerminationReason = Self("kscrash.unknown-termination-reason")
    /// KSCrash itself left frames out of the backtraces it wrote (deep recursion): the stacks are not whole.
    /// Example: KSCrash left 120 frame(s) out of the backtraces it wrote (deep recursion)
    package static let kscrashFramesLeftOut = Self("kscrash.frames-left-out")

    // MARK: - System watchdog stackshots

    /// The stackshot report has no termination: the watchdog's reason is unknown.
    /// Example: the report has no termination: the watchdog's reason is unknown
    package static let watchdogNoTermination = Self("watchdog.no-termination")
    /// The stackshot report has no process table: no process or thread is known.
    /// Example: the report has no stackshot.processByPid: no process or thread is known
    package static let watchdogNoProcessTable = Self("watchdog.no-process-table")
    /// The report's pid is -1: the watched process is found by its name instead.
    /// Example: the report's pid is -1: the watched process is found by its name in the stackshot
    package static let watchdogUnknownPID = Self("watchdog.unknown-pid")
    /// The watched process is not among the stackshot's processes: none is marked as watched.
    /// Example: the watched process is not in the stackshot
    package static let watchdogProcessNotInStackshot = Self("watchdog.process-not-in-stackshot")
    /// A value has a JSON type its field does not read; it was skipped.
    /// Example: `termination` is not an object; skipped
    package static let watchdogWrongType = Self("watchdog.wrong-type")
    /// More binary images than are kept: the rest were left out, and frames in them have no image.
    /// Example: kept the first 65536 images
    package static let watchdogImageListTruncated = Self("watchdog.image-list-truncated")
    /// More processes than are kept: the rest were left out.
    /// Example: kept the first 8192 processes; 3 more were left out
    package static let watchdogProcessListTruncated = Self("watchdog.process-list-truncated")
    /// More threads than are kept: the rest were left out.
    /// Example: kept the first 65536 threads; 3 more were left out
    package static let watchdogThreadListTruncated = Self("watchdog.thread-list-truncated")
    /// More frames than are kept: the rest were left out.
    /// Example: kept the first 1048576 frames; 3 more were left out
    package static let watchdogFrameListTruncated = Self("watchdog.frame-list-truncated")
    /// Frames that are not `[imageIndex, offset]` pairs were skipped.
    /// Example: 2 frames are not [imageIndex, offset] pairs of non-negative integers; skipped
    package static let watchdogUnreadableFrame = Self("watchdog.unreadable-frame")
    /// Frames name an image past the image list; they are kept without an image.
    /// Example: 2 frames name an image index past the 40 images; kept without an image
    package static let watchdogFrameImageOutOfRange = Self("watchdog.frame-image-out-of-range")

    // MARK: - Resource reports

    /// A line of the heaviest stack is not a frame; it was skipped (said once per report).
    /// Example: a line of the heaviest stack is not a frame (count, symbol, (image + offset))
    package static let resourceUnreadableFrame = Self("resource.unreadable-frame")
    /// The heaviest stack has more frames than are kept: the rest were left out.
    /// Example: kept the first 1024 frames of the heaviest stack; 10 more were left out
    package static let resourceFrameListTruncated = Self("resource.frame-list-truncated")
    /// The report has more fields than are kept: the rest were left out.
    /// Example: kept the first 512 fields; 3 more were left out
    package static let resourceFieldListTruncated = Self("resource.field-list-truncated")
    /// The report states no limit for its resource: how far it was exceeded is unknown.
    /// Example: the report states no CPU limit
    package static let resourceNoLimit = Self("resource.no-limit")
    /// A second, complete crash report body follows the first in one file (two reports pasted together); only the
    /// first is the report, the second is not read.
    /// Example: a second crash report body was not read: the first is the report
    package static let crashSecondBodyIgnored = Self("crash.second-body-ignored")
    /// Text before or after the JSON body (a log line, a paste's heading) is not part of the report; it was left
    /// out.
    /// Example: text before the JSON body was not part of the report
    package static let crashTextBesideBody = Self("crash.text-beside-body")

    // MARK: - Spindump hang reports

    /// The report has no thread list for the hung process (no `Process:` section names its PID or command): its
    /// main thread is the report's heaviest stack, and it has no other threads or binary images.
    /// Example: the report has no thread list for the hung process; its main thread is the heaviest stack
    package static let spindumpProcessNotFound = Self("spindump.process-not-found")
    /// One thread's call tree had more lines than are kept: its stack is the heaviest path of the part read, and
    /// the report is marked partial.
    /// Example: 12 call-tree line(s) past 200000 in one thread were left out; that thread's stack is the heaviest of what was read
    package static let spindumpTreeTruncated = Self("spindump.tree-truncated")
    /// Spindump samples every process; only the hung one is modelled, the others are counted here.
    /// Example: 212 other process(es) sampled with the hung one are counted, not modelled
    package static let spindumpOtherProcesses = Self("spindump.other-processes")
    /// Lines of the header, the heaviest stack or the hung process's part that are no field, frame or image (the
    /// location is the first); they are skipped.
    /// Example: 3 line(s) of the hung process's part matched no field, frame or image
    package static let spindumpUnreadLines = Self("spindump.unread-lines")
}
