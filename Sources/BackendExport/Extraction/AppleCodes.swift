/// The numbers behind the names Apple's reports print, which Sentry's mechanism metadata wants as integers.
///
/// Facts from the xnu and Darwin headers (`mach/exception_types.h`, `sys/signal.h`, `mach/kern_return.h`).
enum AppleCodes {
    static func signalNumber(_ name: String) -> Int64? {
        switch name {
        case "SIGHUP": 1
        case "SIGINT": 2
        case "SIGQUIT": 3
        case "SIGILL": 4
        case "SIGTRAP": 5
        case "SIGABRT": 6
        case "SIGEMT": 7
        case "SIGFPE": 8
        case "SIGKILL": 9
        case "SIGBUS": 10
        case "SIGSEGV": 11
        case "SIGSYS": 12
        case "SIGPIPE": 13
        case "SIGALRM": 14
        case "SIGTERM": 15
        case "SIGXCPU": 24
        case "SIGXFSZ": 25
        case "SIGUSR1": 30
        case "SIGUSR2": 31
        default: nil
        }
    }

    static func signalName(_ number: Int64) -> String? {
        let names = [
            "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGEMT", "SIGFPE", "SIGKILL", "SIGBUS",
            "SIGSEGV", "SIGSYS", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGXCPU", "SIGXFSZ", "SIGUSR1", "SIGUSR2",
        ]
        return names.first { signalNumber($0) == number }
    }

    /// Signal code names (`SEGV_MAPERR`) and their values.
    static func signalCode(_ name: String) -> Int64? {
        switch name {
        case "SEGV_MAPERR", "BUS_ADRALN", "ILL_ILLOPC", "TRAP_BRKPT", "FPE_FLTDIV": 1
        case "SEGV_ACCERR", "BUS_ADRERR", "ILL_ILLTRP", "TRAP_TRACE", "FPE_FLTOVF": 2
        case "BUS_OBJERR", "ILL_PRVOPC", "FPE_FLTUND": 3
        default: nil
        }
    }

    static func machExceptionNumber(_ name: String) -> Int64? {
        switch name {
        case "EXC_BAD_ACCESS": 1
        case "EXC_BAD_INSTRUCTION": 2
        case "EXC_ARITHMETIC": 3
        case "EXC_EMULATION": 4
        case "EXC_SOFTWARE": 5
        case "EXC_BREAKPOINT": 6
        case "EXC_SYSCALL": 7
        case "EXC_MACH_SYSCALL": 8
        case "EXC_RPC_ALERT": 9
        case "EXC_CRASH": 10
        case "EXC_RESOURCE": 11
        case "EXC_GUARD": 12
        case "EXC_CORPSE_NOTIFY": 13
        default: nil
        }
    }

    static func machExceptionName(_ number: Int64) -> String? {
        let names = [
            "EXC_BAD_ACCESS", "EXC_BAD_INSTRUCTION", "EXC_ARITHMETIC", "EXC_EMULATION", "EXC_SOFTWARE",
            "EXC_BREAKPOINT", "EXC_SYSCALL", "EXC_MACH_SYSCALL", "EXC_RPC_ALERT", "EXC_CRASH", "EXC_RESOURCE",
            "EXC_GUARD", "EXC_CORPSE_NOTIFY",
        ]
        return names.first { machExceptionNumber($0) == number }
    }

    static func kernReturn(_ name: String) -> UInt64? {
        switch name {
        case "KERN_INVALID_ADDRESS": 1
        case "KERN_PROTECTION_FAILURE": 2
        default: nil
        }
    }

    /// `arm64`, `x86_64` … from a report's code type (`ARM-64`, `X86-64`, `ARM`).
    static func arch(codeType: String?) -> String? {
        guard let codeType else { return nil }
        switch codeType.uppercased() {
        case "ARM-64", "ARM64": return "arm64"
        case "ARM-64E", "ARM64E": return "arm64e"
        case "ARM": return "armv7"
        case "X86-64", "X86_64": return "x86_64"
        case "X86": return "x86"
        default: return codeType.isEmpty ? nil : codeType.lowercased()
        }
    }

    /// `iPhone` for `iPhone14,2`: the letters before the first digit.
    static func family(model: String?) -> String? {
        guard let model else { return nil }
        let letters = model.prefix { !$0.isNumber && $0 != "," }
        return letters.isEmpty ? nil : String(letters)
    }

    /// Sentry and OpenTelemetry name iPhone OS `iOS`.
    static func osName(_ name: String?) -> String? {
        guard let name, !name.isEmpty else { return nil }
        return name == "iPhone OS" ? "iOS" : name
    }
}
