/// The names KSCrash leaves as numbers: Mach exception types, signals, CPU types and subtypes.
///
/// KSCrash writes `exception_name`, `signal.name` and `cpu_arch` when it can; SentryCrash drops the signal name, old
/// reports drop the Mach name, and binary images carry only `cpu_type`/`cpu_subtype`. The numbers are those of
/// `<mach/exception_types.h>`, `<sys/signal.h>` and `<mach/machine.h>` on Darwin.
enum KSCrashNames {
    static func machException(_ number: Int64) -> String? {
        switch number {
        case 1: "EXC_BAD_ACCESS"
        case 2: "EXC_BAD_INSTRUCTION"
        case 3: "EXC_ARITHMETIC"
        case 4: "EXC_EMULATION"
        case 5: "EXC_SOFTWARE"
        case 6: "EXC_BREAKPOINT"
        case 7: "EXC_SYSCALL"
        case 8: "EXC_MACH_SYSCALL"
        case 9: "EXC_RPC_ALERT"
        case 10: "EXC_CRASH"
        case 11: "EXC_RESOURCE"
        case 12: "EXC_GUARD"
        case 13: "EXC_CORPSE_NOTIFY"
        default: nil
        }
    }

    static func signal(_ number: Int64) -> String? {
        switch number {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 3: "SIGQUIT"
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 7: "SIGEMT"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 10: "SIGBUS"
        case 11: "SIGSEGV"
        case 12: "SIGSYS"
        case 13: "SIGPIPE"
        case 14: "SIGALRM"
        case 15: "SIGTERM"
        default: nil
        }
    }

    /// The architecture name Apple's binary image lists use (`arm64`, `arm64e`, `armv7`, `x86_64`).
    static func architecture(cpuType: Int64, cpuSubtype: Int64) -> String? {
        // The high byte of the subtype holds capability bits (arm64e's pointer authentication ABI version).
        let subtype = cpuSubtype & 0x00FF_FFFF
        switch cpuType {
        case 12:
            switch subtype {
            case 6: return "armv6"
            case 9: return "armv7"
            case 10: return "armv7f"
            case 11: return "armv7s"
            case 12: return "armv7k"
            case 13: return "armv8"
            case 14: return "armv6m"
            case 15: return "armv7m"
            case 16: return "armv7em"
            default: return "arm"
            }
        case 0x0100_000C:
            return subtype == 2 ? "arm64e" : "arm64"
        case 0x0200_000C:
            return "arm64_32"
        case 7:
            return "i386"
        case 0x0100_0007:
            return subtype == 8 ? "x86_64h" : "x86_64"
        default:
            return nil
        }
    }

    /// Apple's `Code Type` for an architecture name (`ARM-64`, `ARM`, `X86-64`, `X86`).
    static func codeType(architecture: String) -> String? {
        let name = architecture.lowercased()
        if name.hasPrefix("arm64") { return "ARM-64" }
        if name.hasPrefix("arm") { return "ARM" }
        if name.hasPrefix("x86_64") { return "X86-64" }
        if name == "x86" || name == "i386" { return "X86" }
        return nil
    }

    /// The thread state flavour the Apple text layout names registers by, from the architecture.
    static func registerFlavor(architecture: String?) -> String? {
        guard let name = architecture?.lowercased() else { return nil }
        if name.hasPrefix("arm64") { return "ARM_THREAD_STATE64" }
        if name.hasPrefix("arm") { return "ARM_THREAD_STATE" }
        if name.hasPrefix("x86_64") { return "x86_THREAD_STATE" }
        if name == "x86" || name == "i386" { return "x86_THREAD_STATE32" }
        return nil
    }
}
