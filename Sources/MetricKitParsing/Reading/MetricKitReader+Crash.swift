import APMInspectCore
import CrashReportParsing

extension MetricKitReader {
    /// The crash report model of a crash diagnostic: one thread per call stack, its frames from the root frame
    /// down its callers (MetricKit's root frame is the top of the stack), binary images from the frames.
    func crashReport(for diagnostic: MetricKitDiagnostic, findings: inout MetricKitFindings) -> CrashReport {
        // The model has no MetricKit source format; `fragment` says what is true of it: no header, no registers,
        // no symbols, only what the payload holds.
        var report = CrashReport(sourceFormat: .fragment)
        let metadata = diagnostic.metadata
        report.appVersion = metadata.appVersion.flatMap { $0.isEmpty ? nil : $0 }
        report.appBuild = metadata.appBuildVersion.flatMap { $0.isEmpty ? nil : $0 }
        report.osVersion = metadata.osVersion
        report.hardwareModel = metadata.deviceType
        report.bundleId = metadata.bundleIdentifier
        report.pid = metadata.pid
        report.codeType = metadata.platformArchitecture.map(Self.codeType)
        var exception = CrashReport.Exception()
        if let type = diagnostic.exceptionType {
            exception.type = Self.machExceptionNames[type] ?? String(type)
        }
        if let signal = diagnostic.signal {
            exception.signal = Self.signalNames[signal] ?? String(signal)
        }
        if let code = diagnostic.exceptionCode {
            let value = UInt64(bitPattern: code)
            exception.codes =
                "0x" + String(repeating: "0", count: max(0, 16 - String(value, radix: 16).count))
                + String(value, radix: 16)
            exception.codeValues = [HexValue(value)]
        }
        if exception != CrashReport.Exception() { report.exception = exception }
        if let reason = diagnostic.terminationReason {
            report.termination = CrashReport.Termination(raw: reason)
        }
        if let info = diagnostic.virtualMemoryRegionInfo {
            let lines = info.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            report.blocks.append(CrashReport.Block(title: "VM Region Info", lines: lines))
        }
        if let objc = diagnostic.objectiveCException {
            // The line CoreFoundation writes before abort(), built from the structured reason, so the exception
            // is where readers of crash reports look for it.
            let name = objc.name ?? objc.className ?? "NSException"
            let message = objc.message ?? objc.formatString ?? ""
            report.applicationSpecificInformation = [
                "*** Terminating app due to uncaught exception '\(name)', reason: '\(message)'"
            ]
        }
        guard let tree = diagnostic.callTree else {
            report.isPartial = true
            report.deriveFacts()
            return report
        }
        var children = [[Int]](repeating: [], count: tree.frames.count)
        for frame in tree.frames {
            if let parent = frame.parent, children.indices.contains(parent) { children[parent].append(frame.id) }
        }
        var branchesDropped = false
        for stack in tree.stacks {
            var thread = CrashReport.Thread(index: report.threads.count)
            // In a crash, the attributed thread is the one that crashed (`attributed` is EXC_RESOURCE's word).
            thread.crashed = stack.threadAttributed == true && report.crashedThread == nil
            if thread.crashed { report.crashedThread = thread.index }
            if stack.rootFrames.count > 1 { branchesDropped = true }
            // One path: a crash stack is a chain. Where it branches, the heaviest caller is followed.
            var cursor = stack.rootFrames.first
            while let id = cursor, thread.frames.count <= tree.frames.count {
                let node = tree.frames[id]
                var frame = CrashReport.Frame(index: thread.frames.count, image: node.binaryName, address: node.address)
                frame.imageOffset = node.imageOffset
                thread.frames.append(frame)
                let next = children[id]
                if next.count > 1 { branchesDropped = true }
                cursor = next.max { tree.frames[$0].totalSamples < tree.frames[$1].totalSamples }
                if let first = next.first, let chosen = cursor,
                    tree.frames[first].totalSamples == tree.frames[chosen].totalSamples
                {
                    cursor = first
                }
            }
            report.threads.append(thread)
        }
        if branchesDropped {
            findings.add(
                .note,
                .metricKitCrashStackBranches,
                "a crash call stack branches: its threads follow the heaviest branch (the tree keeps every frame)",
                at: nil,
                keyPath: diagnostic.keyPath
            )
        }
        report.binaryImages = Self.binaryImages(tree)
        report.process = Self.mainExecutable(report)
        report.deriveFacts()
        return report
    }

    /// One image per binary UUID (or name), at its load address, sorted by address.
    package static func binaryImages(_ tree: MetricKitCallTree) -> [CrashReport.BinaryImage] {
        var byKey: [String: Int] = [:]
        var images: [CrashReport.BinaryImage] = []
        for frame in tree.frames {
            guard let base = frame.loadAddress else { continue }
            let key = frame.binaryUUID ?? frame.binaryName ?? "@\(base)"
            if let existing = byKey[key] {
                if images[existing].name == nil, let name = frame.binaryName { images[existing].name = name }
                continue
            }
            byKey[key] = images.count
            images.append(
                CrashReport.BinaryImage(name: frame.binaryName, base: base, uuid: frame.binaryUUID.map(Self.normalUUID))
            )
        }
        return images.sorted { $0.base < $1.base }
    }

    /// 32 lower-case hex digits without dashes, as the crash model keeps UUIDs; other text as written.
    static func normalUUID(_ text: String) -> String {
        let digits = text.lowercased().filter { $0 != "-" }
        guard digits.count == 32, digits.allSatisfy(\.isHexDigit) else { return text }
        return digits
    }

    /// The app's executable, inferred, since MetricKit does not name the process.
    ///
    /// It is the binary of the frame that dyld's `start` called, on a thread that ends there (the main thread).
    static func mainExecutable(_ report: CrashReport) -> String? {
        for thread in report.threads {
            guard thread.frames.count >= 2, let last = thread.frames.last?.image,
                last == "dyld" || last == "libdyld.dylib"
            else { continue }
            let caller = thread.frames[thread.frames.count - 2].image
            if let caller, caller != "dyld", caller != "libdyld.dylib" { return caller }
        }
        return nil
    }

    static func codeType(_ architecture: String) -> String {
        switch architecture {
        case "arm64", "arm64e": "ARM-64"
        case "x86_64", "x86_64h": "X86-64"
        case "arm64_32": "ARM64_32"
        case "armv7", "armv7s", "armv7k": "ARM"
        default: architecture
        }
    }

    /// `<mach/exception_types.h>`.
    static let machExceptionNames: [Int64: String] = [
        1: "EXC_BAD_ACCESS", 2: "EXC_BAD_INSTRUCTION", 3: "EXC_ARITHMETIC", 4: "EXC_EMULATION", 5: "EXC_SOFTWARE",
        6: "EXC_BREAKPOINT", 7: "EXC_SYSCALL", 8: "EXC_MACH_SYSCALL", 9: "EXC_RPC_ALERT", 10: "EXC_CRASH",
        11: "EXC_RESOURCE", 12: "EXC_GUARD", 13: "EXC_CORPSE_NOTIFY",
    ]

    /// Darwin's `<sys/signal.h>`.
    static let signalNames: [Int64: String] = [
        1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT", 8: "SIGFPE",
        9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        16: "SIGURG", 17: "SIGSTOP", 18: "SIGTSTP", 19: "SIGCONT", 20: "SIGCHLD", 21: "SIGTTIN", 22: "SIGTTOU",
        23: "SIGIO", 24: "SIGXCPU", 25: "SIGXFSZ", 26: "SIGVTALRM", 27: "SIGPROF", 28: "SIGWINCH", 29: "SIGINFO",
        30: "SIGUSR1", 31: "SIGUSR2",
    ]
}
