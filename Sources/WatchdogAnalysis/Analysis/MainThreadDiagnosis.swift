import APMInspectCore
import CrashReportParsing

/// Reads a watchdog report's main thread and says what it was doing, how sure that is, and why.
///
/// The frames decide the candidate (a wait, a synchronous call, app code on top); the CPU statistics confirm or
/// weaken it: a blocked main thread uses little application CPU, a busy one a lot.
enum MainThreadDiagnosis {
    private typealias Verdict = WatchdogTermination.Diagnosis.Verdict

    /// Symbol fragments that identify each kind of wait, checked from the top of the stack down.
    private static let patterns: [(Verdict, [String])] = [
        (
            .synchronousDispatchOrOnce,
            [
                "_dispatch_sync_f_slow", "__DISPATCH_WAIT_FOR_QUEUE__", "_dispatch_sync_wait", "dispatch_sync",
                "_dispatch_once_wait", "dispatch_once_f", "_dispatch_barrier_sync",
            ]
        ),
        (
            .synchronousNetworking,
            [
                "sendSynchronousRequest", "initWithContentsOfURL", "dataWithContentsOfURL", "CFReadStream",
                "getaddrinfo", "SCNetworkReachability", "CFHTTPMessage", "nw_connection", "URLSession", "recvfrom",
            ]
        ),
        (
            .synchronousFileOrDatabaseIO,
            [
                "sqlite3_", "executeFetchRequest", "NSPersistentStore", "save:", "initWithContentsOfFile",
                "dataWithContentsOfFile", "writeToFile", "writeToURL", "NSFileManager", "NSFileCoordinator", "fsync",
                "__open", "pread", "pwrite", "__read_nocancel", "__write_nocancel", "fcntl", "flock", "__getdirentries",
                "__stat", "realpath",
            ]
        ),
        (
            .crossProcessCall,
            [
                "NSUserDefaults", "CFPreferences", "UIPasteboard", "openURL",
                "xpc_connection_send_message_with_reply_sync",
                "_xpc_send_message_with_reply", "NSXPCConnection", "LSApplicationWorkspace", "CTTelephony",
                "SecItemCopyMatching", "SecItemAdd", "-[NSBundle", "MobileGestalt",
            ]
        ),
        (
            .runtimeOrLoaderLock,
            [
                "realizeClass", "_objc_fetch_pthread_data", "objc_initializeClass", "_read_images", "map_images",
                "dyld", "dlopen", "dlsym", "__cxa_guard_acquire", "_dyld_", "load_images",
            ]
        ),
        (
            .waitingOnLock,
            [
                "semaphore_wait_trap", "_dispatch_semaphore_wait_slow", "dispatch_semaphore_wait", "__psynch_mutexwait",
                "pthread_mutex_lock", "__psynch_cvwait", "pthread_cond_wait", "-[NSCondition wait]",
                "-[NSConditionLock", "os_unfair_lock_lock", "__ulock_wait", "-[NSLock lock]",
                "_pthread_mutex_firstfit_lock_slow",
                "dispatch_group_wait",
            ]
        ),
    ]

    /// Binaries that do one kind of work, so that an unsymbolicated frame in them is as telling as a symbol.
    ///
    /// MetricKit gives frames as `SQLite + 254404`. Matched by exact name, and only when a caller asks for it.
    private static let imagePatterns: [Verdict: Set<String>] = [
        .synchronousNetworking: ["CFNetwork", "libnetwork.dylib", "Network", "libsystem_dnssd.dylib"],
        .synchronousFileOrDatabaseIO: ["SQLite", "libsqlite3.dylib", "CoreData"],
        .crossProcessCall: ["libxpc.dylib", "MobileGestalt", "libMobileGestalt.dylib"],
    ]

    private static let idleRunLoop = ["mach_msg_trap", "mach_msg2_trap", "__CFRunLoopServiceMachPort"]

    static func diagnose(
        _ report: CrashReport,
        cpu: WatchdogTermination.CPUStatistics?,
        kind: WatchdogTermination.Kind,
        watchdogWindow: Double? = nil
    ) -> WatchdogTermination.Diagnosis? {
        guard kind == .watchdogTimeout || kind == .backgroundTask else { return nil }
        return diagnose(thread: mainThread(report), cpu: cpu, watchdogWindow: watchdogWindow, byImage: false)
    }

    /// What a main thread was doing from its frames, top of the stack first; `byImage` also reads unsymbolicated
    /// frames by their binary (``imagePatterns``).
    static func diagnose(
        thread: CrashReport.Thread?,
        cpu: WatchdogTermination.CPUStatistics?,
        watchdogWindow: Double? = nil,
        byImage: Bool
    ) -> WatchdogTermination.Diagnosis {
        guard let thread, !thread.frames.isEmpty else {
            return WatchdogTermination.Diagnosis(
                verdict: .unknown,
                summary: "the report has no main-thread backtrace",
                confidence: .low,
                reasons: ["no frames for the main thread"],
                evidenceFrames: [],
                thread: nil
            )
        }
        let frames = Array(thread.frames.prefix(40))
        let appPercent = cpu?.appPercent
        // Little CPU for the time allowed means the thread waited. The share of the allowance (or of the time
        // taken) is the better measure: the percentage is averaged over all cores and a longer window.
        let seconds = watchdogWindow ?? 0
        let lowCPU: Bool?
        if let appSeconds = cpu?.appSeconds, seconds > 0 {
            lowCPU = appSeconds / seconds < 0.2
        } else {
            lowCPU = appPercent.map { $0 < 20 }
        }
        var reasons: [String] = []
        // The window runs from the top of the stack down to the first app frame (the app's call that started it);
        // within it, the more specific causes win: a semaphore wait inside SQLite is database I/O.
        let firstApp = frames.firstIndex { $0.isAppFrame == true } ?? min(frames.count - 1, 24)
        let scanned = frames[0...min(firstApp, 24)]
        var described = scanned.map(describe)
        for (verdict, fragments) in patterns {
            let images = byImage ? imagePatterns[verdict] ?? [] : []
            guard
                let position = described.indices.first(where: { index in
                    let frame = scanned[scanned.startIndex + index]
                    if frame.symbol == nil, let image = frame.image, images.contains(image) { return true }
                    return contains(&described[index], anyOf: fragments)
                })
            else { continue }
            let offset = scanned.startIndex + position
            let hit = scanned[offset]
            let text = describe(hit)
            let appCaller = frames[offset...].first { $0.isAppFrame == true }
            var evidence = frames[0...offset].suffix(3).map(describe)
            if let appCaller { evidence.append(describe(appCaller)) }
            reasons.append("frame \(hit.index) is \(text)")
            if let appCaller {
                reasons.append("called from the app at frame \(appCaller.index): \(describe(appCaller))")
            }
            var confidence: WatchdogTermination.Diagnosis.Confidence = offset < 12 ? .high : .medium
            if let lowCPU {
                if lowCPU {
                    reasons.append(
                        "application CPU was \(cpuText(cpu, window: seconds)): the thread was waiting, not working"
                    )
                } else {
                    reasons.append(
                        "application CPU was \(cpuText(cpu, window: seconds)): busy, which a pure wait does not explain"
                    )
                    confidence = .medium
                }
            } else {
                reasons.append("no CPU statistics in the report to confirm it")
                if confidence == .high { confidence = .medium }
            }
            return WatchdogTermination.Diagnosis(
                verdict: verdict,
                summary: summary(verdict),
                confidence: confidence,
                reasons: reasons,
                evidenceFrames: evidence,
                thread: thread.index
            )
        }
        let appFrames = frames.prefix(8).filter { $0.isAppFrame == true }
        if !appFrames.isEmpty {
            var confidence: WatchdogTermination.Diagnosis.Confidence = .medium
            reasons.append("app code is near the top of the main thread with no wait below it")
            if let lowCPU, !lowCPU {
                confidence = .high
                reasons.append("application CPU was \(cpuText(cpu, window: seconds)): the main thread was working")
            } else if lowCPU == true {
                confidence = .low
                reasons.append(
                    "but application CPU was only \(cpuText(cpu, window: seconds)), which does not fit busy work"
                )
            }
            return WatchdogTermination.Diagnosis(
                verdict: .busyInAppCode,
                summary: summary(.busyInAppCode),
                confidence: confidence,
                reasons: reasons,
                evidenceFrames: appFrames.prefix(4).map(describe),
                thread: thread.index
            )
        }
        if let top = frames.first, idleRunLoop.contains(where: { describe(top).containsBytes($0) }) {
            reasons.append("the main thread is parked in its run loop (\(describe(top)))")
            reasons.append("the stall happened earlier and had ended, or the work is on another thread")
            return WatchdogTermination.Diagnosis(
                verdict: .idleRunLoop,
                summary: summary(.idleRunLoop),
                confidence: .low,
                reasons: reasons,
                evidenceFrames: [describe(top)],
                thread: thread.index
            )
        }
        reasons.append("no known wait, synchronous call or app frame near the top of the main thread")
        if let appPercent { reasons.append("application CPU was \(format(appPercent)) %") }
        return WatchdogTermination.Diagnosis(
            verdict: .unknown,
            summary: summary(.unknown),
            confidence: .low,
            reasons: reasons,
            evidenceFrames: frames.prefix(3).map(describe),
            thread: thread.index
        )
    }

    /// True when any fragment's bytes occur in `text`: one pass over the text's contiguous bytes per fragment,
    /// without a String call per fragment.
    private static func contains(_ text: inout String, anyOf fragments: [String]) -> Bool {
        text.withBorrowedUTF8 { bytes in
            fragments.contains { fragment in
                var fragment = fragment
                return fragment.withBorrowedUTF8 { pattern in
                    pattern.isEmpty || UTF8Search.firstOffset(of: pattern, in: bytes, from: 0) != nil
                }
            }
        }
    }

    /// The thread on `com.apple.main-thread`, else thread 0.
    static func mainThread(_ report: CrashReport) -> CrashReport.Thread? {
        report.threads.first { $0.queue == "com.apple.main-thread" } ?? report.threads.first { $0.index == 0 }
    }

    static func describe(_ frame: CrashReport.Frame) -> String {
        let image = frame.image ?? "???"
        if let symbol = frame.symbol { return "\(image) \(symbol)" }
        if let offset = frame.imageOffset { return "\(image) + \(offset)" }
        return "\(image) \(frame.address?.description ?? "")"
    }

    /// `6.87 s (35 % of the 19.81 s window)`, or the reported percentage when no window is known.
    private static func cpuText(_ cpu: WatchdogTermination.CPUStatistics?, window: Double) -> String {
        if let seconds = cpu?.appSeconds, window > 0 {
            return
                "\(format(seconds)) s (\(format((seconds / window * 100).rounded())) % of the \(format(window)) s window)"
        }
        return "\(format(cpu?.appPercent)) %"
    }

    private static func format(_ value: Double?) -> String {
        guard let value else { return "?" }
        return value.wholeOrDecimalText
    }

    private static func summary(_ verdict: WatchdogTermination.Diagnosis.Verdict) -> String {
        switch verdict {
        case .waitingOnLock: "the main thread was blocked waiting on a semaphore, lock or condition"
        case .synchronousDispatchOrOnce:
            "the main thread was blocked in a synchronous dispatch or dispatch_once (a deadlock if the other side waits for main)"
        case .synchronousFileOrDatabaseIO: "the main thread was doing synchronous file or database I/O"
        case .synchronousNetworking: "the main thread was waiting on synchronous networking"
        case .crossProcessCall:
            "the main thread was waiting on another process (preferences, pasteboard, XPC, keychain, openURL)"
        case .runtimeOrLoaderLock: "the main thread was waiting on the Objective-C runtime or the dynamic loader"
        case .busyInAppCode: "the main thread was busy running the app's own code"
        case .idleRunLoop: "the main thread was idle in its run loop when the report was taken"
        case .unknown: "the main thread's state does not match a known pattern"
        }
    }
}
