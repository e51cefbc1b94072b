import APMInspectCore

/// The termination codes Apple documents, with their names and meanings.
package struct TerminationCode: Sendable, Equatable {
    package var code: UInt64
    package var name: String
    package var kind: WatchdogTermination.Kind
    package var meaning: String

    /// The table entry for `code`, or nil.
    package static func lookup(_ code: UInt64) -> TerminationCode? { table[code] }

    private static let table: [UInt64: TerminationCode] = {
        let rows: [(UInt64, String, WatchdogTermination.Kind, String)] = [
            (
                0x8bad_f00d, "ate bad food", .watchdogTimeout,
                "watchdog: the app took too long to launch, resume, suspend or answer a system event"
            ),
            (0xc000_10ff, "cool off", .thermal, "killed because of a thermal event: the device was too hot"),
            (
                0xdead_10cc, "dead lock", .fileLockHeldInBackground,
                "held a file or SQLite database lock while being suspended"
            ),
            (0xbaad_ca11, "bad call", .voip, "a PushKit VoIP push was not reported to CallKit"),
            (0xbad2_2222, "bad 22222", .voip, "a VoIP app was resumed too often"),
            (0xbadd_d15c, "bad disc", .resourcePressure, "killed to delete caches when the disk was nearly full"),
            (0xd00d_2bad, "dude, too bad", .resourcePressure, "excessive use of key system resources"),
            (0x2182_bad2, "background task", .backgroundTask, "a background task did not finish in time"),
            (
                0x2182_bad3, "background URLSession", .backgroundTask,
                "background URLSession work did not finish in time"
            ),
            (0x2182_bad4, "background fetch", .backgroundTask, "a background fetch did not finish in time"),
            (0xc51b_ad01, "watchOS background CPU", .backgroundTask, "a watchOS background task used too much CPU"),
            (0xc51b_ad02, "watchOS background time", .backgroundTask, "a watchOS background task took too long"),
            (
                0xc51b_ad03, "watchOS background time (busy)", .backgroundTask,
                "a watchOS background task took too long on a busy system"
            ),
            (
                0x2bad_45ec, "too bad for security", .insecureDrawing,
                "drew on screen while the device was locked in secure mode"
            ),
            (0xdead_fa11, "dead fall", .forceQuit, "the user force-quit the app"),
            (0xbaaa_aaad, "stackshot", .stackshot, "a stackshot taken by the user: a snapshot, not a crash"),
            (0xfbfb_fbfb, "simulator host", .simulatorTermination, "termination requested by the simulator host"),
        ]
        var table: [UInt64: TerminationCode] = [:]
        for (code, name, kind, meaning) in rows {
            table[code] = TerminationCode(code: code, name: name, kind: kind, meaning: meaning)
        }
        return table
    }()

    /// xnu's reason namespaces by number (`bsd/sys/reason.h`; 15 and up from newer headers).
    package static let namespaces: [Int: String] = [
        0: "INVALID", 1: "JETSAM", 2: "SIGNAL", 3: "CODESIGNING", 4: "HANGTRACER", 5: "TEST", 6: "DYLD", 7: "LIBXPC",
        8: "OBJC", 9: "EXEC", 10: "SPRINGBOARD", 11: "TCC", 12: "REPORTCRASH", 13: "COREANIMATION", 14: "AGGREGATED",
        15: "RUNNINGBOARD", 16: "SKYWALK", 17: "SETTINGS", 18: "LIBSYSTEM", 19: "FOUNDATION", 20: "WATCHDOG",
        21: "METAL", 22: "WATCHKIT", 23: "GUARD", 24: "ANALYTICS", 25: "SANDBOX",
    ]

    /// `termination.flags` bit names.
    package static func flagNames(_ flags: UInt64) -> [String] {
        let bits: [(UInt64, String)] = [
            (0x1, "NO_CRASH_REPORT"), (0x2, "GENERATE_CRASH_REPORT"), (0x4, "FROM_USERSPACE"),
            (0x8, "FAILED_DATA_COPYIN"), (0x10, "PAYLOAD_TRUNCATED"), (0x20, "BAD_PARAMS"),
        ]
        var names = bits.filter { flags & $0.0 != 0 }.map(\.1)
        let known = bits.reduce(UInt64(0)) { $0 | $1.0 }
        if flags & ~known != 0 { names.append("0x" + String(flags & ~known, radix: 16)) }
        return names
    }
}
