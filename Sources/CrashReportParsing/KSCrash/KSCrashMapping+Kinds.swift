import APMInspectCore

extension KSCrashMapping {
    /// Samples kept from one profile: a hostile file can list millions; past this they are counted.
    static let maxProfileSamples = 100_000

    /// What KSCrash 2.x writes besides crashes: a hang that recovered (`hang`), the watchdog kill a hang ended in
    /// (`exit_reason`, whose code is kept apart from the termination: KSCrash names no namespace), an OS termination (`termination` with `termination_reason`, `memory_termination`), a
    /// sampling profile (`profile`), and `is_fatal` false for a report the writer says is not fatal.
    mutating func readKind(_ error: JSONElement, type: String?, keyPath: String, into report: inout CrashReport) {
        if let block = error.member("hang") {
            report.hang = readHang(block, recovered: type == "hang", keyPath: Self.path(keyPath, "hang"))
        }
        if let exit = error.member("exit_reason"), expectObject(exit, Self.path(keyPath, "exit_reason")),
            let code = unsigned(exit.member("code")), code != 0
        {
            report.exitReasonCode = HexValue(code)
            report.category = .watchdogTermination
        }
        switch type {
        case "hang":
            report.category = .hang
            if report.hang == nil {
                warn(
                    .kscrashHangBlockMissing,
                    "a hang report without its hang block: start, end and duration are unknown",
                    error,
                    keyPath
                )
                report.hang = CrashReport.Hang(recovered: true)
            }
        case "profile":
            report.category = .profile
            if let block = error.member("profile") {
                report.profile = readProfile(block, keyPath: Self.path(keyPath, "profile"))
            } else {
                warn(.kscrashProfileBlockMissing, "a profile report without its profile block", error, keyPath)
            }
        case "memory_termination":
            report.category = .outOfMemory
        case "termination":
            let reason = nonEmpty(text(error.member("termination_reason")))
            report.category = reason.flatMap(Self.category(terminationReason:))
            report.terminationReason = reason
            if report.category == nil {
                warn(
                    .kscrashUnknownTerminationReason,
                    "a termination whose reason this reader does not know (\(reason ?? "none")): read as a crash",
                    error.member("termination_reason") ?? error,
                    Self.path(keyPath, "termination_reason")
                )
            }
        default:
            break
        }
        if error.member("is_fatal")?.bool == false, report.category == nil || report.category == .crash {
            // The writer says the process went on: a report of a condition, not a crash.
            var exception = report.exception ?? CrashReport.Exception()
            exception.isNonFatal = true
            report.exception = exception
        }
    }

    /// The category of KSCrash's `termination_reason` (`memory_limit`, `thermal`, `cpu` …); nil for one it does
    /// not name.
    static func category(terminationReason reason: String) -> ReportCategory? {
        let lower = reason.lowercased()
        if lower.contains("memory") || lower.contains("oom") || lower.contains("jetsam") { return .outOfMemory }
        if lower.contains("cpu") || lower.contains("disk") || lower.contains("resource") { return .resourceKill }
        if lower.contains("thermal") || lower.contains("watchdog") || lower.contains("hang") {
            return .watchdogTermination
        }
        return nil
    }

    /// `error.hang`: the start and end on the monotonic clock in nanoseconds, and the app's role at each.
    private mutating func readHang(_ block: JSONElement, recovered: Bool, keyPath: String) -> CrashReport.Hang? {
        guard expectObject(block, keyPath) else { return nil }
        var hang = CrashReport.Hang(recovered: recovered)
        hang.startNanoseconds = nanoseconds(block.member("hang_start_nanos"), keyPath: keyPath + ".hang_start_nanos")
        hang.endNanoseconds = nanoseconds(block.member("hang_end_nanos"), keyPath: keyPath + ".hang_end_nanos")
        hang.startRole = nonEmpty(text(block.member("hang_start_role")))
        hang.endRole = nonEmpty(text(block.member("hang_end_role")))
        hang.durationSeconds = CrashReport.Hang.seconds(from: hang.startNanoseconds, to: hang.endNanoseconds)
        if hang.startNanoseconds == nil || hang.endNanoseconds == nil {
            warn(
                .kscrashHangTimeMissing,
                "the hang lacks a start or an end time: its duration is unknown",
                block,
                keyPath
            )
        } else if hang.durationSeconds == nil {
            warn(.kscrashHangEndsBeforeStart, "the hang ends before it starts: its duration is unknown", block, keyPath)
        }
        return hang
    }

    /// A time in nanoseconds: a non-negative integer; anything else is said and left out.
    private mutating func nanoseconds(_ element: JSONElement?, keyPath: String) -> UInt64? {
        guard let element, element.kind != .null else { return nil }
        if element.kind == .number, let value = element.uint64 { return value }
        warn(
            .kscrashWrongType,
            "expected a time in nanoseconds (a non-negative integer); the value was skipped",
            element,
            keyPath
        )
        return nil
    }

    /// `error.profile`: the frame table, the samples as indexes into it, and the times in `time_units`.
    private mutating func readProfile(_ block: JSONElement, keyPath: String) -> CrashReport.Profile? {
        guard expectObject(block, keyPath) else { return nil }
        var profile = CrashReport.Profile()
        profile.name = nonEmpty(text(block.member("name")))
        profile.id = nonEmpty(text(block.member("id")))
        let units = nonEmpty(text(block.member("time_units"))) ?? "nanoseconds"
        let scale = Self.secondsPerUnit(units)
        if scale == nil {
            warn(
                .kscrashUnknownTimeUnits,
                "time units this reader does not know (\(units)): the profile's times are left out",
                block.member("time_units") ?? block,
                keyPath + ".time_units"
            )
        }
        func seconds(_ element: JSONElement?) -> Double? {
            guard let scale, let value = element?.double, value.isFinite, value >= 0 else { return nil }
            let result = value * scale
            return result.isFinite ? result : nil
        }
        profile.durationSeconds = seconds(block.member("duration"))
        profile.sampleIntervalSeconds = seconds(block.member("expected_sample_interval"))
        if let frames = block.member("frames") {
            profile.frames = readFrames(frames, keyPath: keyPath + ".frames", held: 0)
        }
        guard let samples = block.member("samples") else { return profile }
        guard samples.kind == .array else {
            warn(
                .kscrashWrongType,
                "expected an array of samples; the value was skipped",
                samples,
                keyPath + ".samples"
            )
            return profile
        }
        var outOfRange = 0
        var unreadable = 0
        let frameBudget = tally.limits.maxTotalFrames
        var framesKept = 0
        for sample in samples.elements {
            guard profile.samples.count < Self.maxProfileSamples, framesKept < frameBudget else {
                profile.samplesLeftOut += 1
                continue
            }
            guard sample.kind == .object, let list = sample.member("frames"), list.kind == .array else {
                unreadable += 1
                continue
            }
            var indexes: [Int] = []
            indexes.reserveCapacity(min(list.count, tally.limits.maxFramesPerThread))
            for element in list.elements {
                guard indexes.count < tally.limits.maxFramesPerThread else { break }
                if let index = element.int64, index >= 0, index < profile.frames.count {
                    indexes.append(Int(index))
                } else {
                    outOfRange += 1
                }
            }
            framesKept += indexes.count
            profile.samples.append(
                CrashReport.Profile.Sample(frames: indexes, durationSeconds: seconds(sample.member("duration")))
            )
        }
        if outOfRange > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashSampleFrameOutOfRange,
                    "\(outOfRange) sample frame index(es) name no frame of the profile's table: left out",
                    at: SourceLocation(keyPath: keyPath + ".samples")
                )
            )
        }
        if unreadable > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashSampleWithoutFrames,
                    "\(unreadable) sample(s) without a frame list were skipped",
                    at: SourceLocation(keyPath: keyPath + ".samples")
                )
            )
        }
        if profile.samplesLeftOut > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashSamplesTruncated,
                    "\(profile.samplesLeftOut) sample(s) past the limit were counted, not kept",
                    at: SourceLocation(keyPath: keyPath + ".samples")
                )
            )
        }
        return profile
    }

    /// Seconds per unit of KSCrash's `time_units`; nil for a unit it does not name.
    static func secondsPerUnit(_ units: String) -> Double? {
        switch units.lowercased() {
        case "nanoseconds", "ns": 1e-9
        case "microseconds", "us", "µs": 1e-6
        case "milliseconds", "ms": 1e-3
        case "seconds", "s": 1
        default: nil
        }
    }
}
