extension PowerLogReport {
    /// A process exit from `PLProcessMonitorAgent_EventPoint_ProcessExit`, its reason decoded.
    package struct ProcessExit: Sendable, Equatable, Hashable, Codable {
        package var at: PowerLogTime
        package var pid: Int64?
        package var process: String?
        package var reason: Reason
        /// The xnu jetsam band the process was in (0 idle, 3 background, 10 foreground …).
        package var jetsamPriority: Int64?
        package var timeSinceSpawnSeconds: Double?
        package var lastTimeToRelaunchSeconds: Double?

        package init(
            at: PowerLogTime,
            pid: Int64?,
            process: String?,
            reason: Reason,
            jetsamPriority: Int64?,
            timeSinceSpawnSeconds: Double?,
            lastTimeToRelaunchSeconds: Double?
        ) {
            self.at = at
            self.pid = pid
            self.process = process
            self.reason = reason
            self.jetsamPriority = jetsamPriority
            self.timeSinceSpawnSeconds = timeSinceSpawnSeconds
            self.lastTimeToRelaunchSeconds = lastTimeToRelaunchSeconds
        }

        /// An exit reason: xnu's namespace (`bsd/sys/reason.h`) and a code within it.
        package struct Reason: Sendable, Equatable, Hashable, Codable {
            /// What kind of end it was.
            package enum Category: String, Sendable, Equatable, Hashable, Codable {
                /// Killed by the kernel's memory manager (namespace JETSAM).
                case jetsam
                /// Killed for taking too long (0x8badf00d and the watchdog namespaces).
                case watchdog
                /// A crash: a fatal signal, a code-signing or dyld failure, a guard or an abort.
                case crash
                /// Any other reason (a normal exit, a resource policy, an unknown namespace).
                case other
            }

            package var namespace: Int64?
            /// `JETSAM`, `SIGNAL`, `FRONTBOARD` …; nil for unknown namespaces.
            package var namespaceName: String?
            /// The code as a hex string (`0x8badf00d`), as everywhere in this tool's output.
            package var code: String?
            /// The code in words when known (`per-process-limit`, `SIGKILL`, `watchdog timeout`).
            package var codeName: String?
            package var category: Category

            package init(namespace: Int64?, code: UInt64?) {
                self.namespace = namespace
                self.code = code.map { "0x" + String($0, radix: 16) }
                let names = Self.namespaceNames
                self.namespaceName = namespace.flatMap { $0 >= 0 && $0 < Int64(names.count) ? names[Int($0)] : nil }
                (self.codeName, self.category) = Self.decode(namespace: namespace, code: code)
            }

            /// Namespace ids 0–25; ids above 14 come from newer headers and are not all confirmed.
            static let namespaceNames = [
                "INVALID", "JETSAM", "SIGNAL", "CODESIGNING", "HANGTRACER", "TEST", "DYLD", "LIBXPC", "OBJC", "EXEC",
                "SPRINGBOARD", "TCC", "REPORTCRASH", "COREANIMATION", "AGGREGATED", "RUNNINGBOARD", "SKYWALK",
                "SETTINGS", "LIBSYSTEM", "FOUNDATION", "WATCHDOG", "METAL", "WATCHKIT", "GUARD", "ANALYTICS",
                "SANDBOX",
            ]

            /// `JETSAM_REASON_*` from xnu `kern_memorystatus.h`, by code.
            static let jetsamReasons = [
                "invalid", "generic", "highwater", "vnode-limit", "vm-pageshortage", "proc-thrashing",
                "fc-thrashing", "per-process-limit", "disk-space-shortage", "idle-exit", "zone-map-exhaustion",
                "vm-compressor-thrashing", "vm-compressor-space-shortage",
            ]

            static let signals = [
                1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGEMT",
                8: "SIGFPE", 9: "SIGKILL", 10: "SIGBUS", 11: "SIGSEGV", 12: "SIGSYS", 13: "SIGPIPE", 14: "SIGALRM",
                15: "SIGTERM", 24: "SIGXCPU", 25: "SIGXFSZ",
            ]

            static let wellKnownCodes: [UInt64: String] = [
                0x8bad_f00d: "watchdog timeout", 0xc000_10ff: "thermal event", 0xdead_10cc: "lock held while suspended",
                0xbaad_ca11: "VoIP push not reported to CallKit", 0xdead_fa11: "force quit by the user",
                0xbadd_d15c: "killed to free disk space", 0xd00d_2bad: "excessive resource use",
                0x2182_bad2: "background task overran", 0x2182_bad3: "background URLSession overran",
                0x2182_bad4: "background fetch overran",
            ]

            private static func decode(namespace: Int64?, code: UInt64?) -> (String?, Category) {
                switch namespace {
                case 1:
                    let name = code.flatMap { $0 < UInt64(jetsamReasons.count) ? jetsamReasons[Int($0)] : nil }
                    return (name, .jetsam)
                case 2:
                    let name = code.flatMap { $0 < 64 ? signals[Int($0)] : nil }
                    // SIGKILL from the system and SIGTERM are terminations rather than crashes.
                    if code == 9 || code == 15 { return (name, .other) }
                    return (name, .crash)
                case 3, 6, 8, 12, 23:
                    return (code.flatMap { wellKnownCodes[$0] }, .crash)
                case 4, 20:
                    return (code.flatMap { wellKnownCodes[$0] } ?? "hang", .watchdog)
                default:
                    guard let code, let name = wellKnownCodes[code] else { return (nil, .other) }
                    return (name, code == 0x8bad_f00d ? .watchdog : .other)
                }
            }
        }
    }
}
