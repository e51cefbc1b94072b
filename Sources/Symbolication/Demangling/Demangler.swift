#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns Swift and C++ symbol names into the form Apple's crash reports and atos print.
///
/// Swift names go through the demangler of the Swift runtime linked into the tool, so a name reads exactly as
/// Swift's own tools read it; C++ names through the C++ runtime's `__cxa_demangle`, respelled as LLVM's demangler
/// (Apple's) prints them (Demangler+CXX.swift).
/// Both are looked up at run time by name, so a runtime without one of them degrades to showing names mangled
/// rather than failing to load.
///
/// The default, simplified form is what Apple prints: `closure #1 in ViewController.viewDidLoad()`, with no module
/// names, argument labels only, no return types (the Swift runtime's `SimplifiedUIDemangleOptions`, reached
/// through the backtracer's demangling entry point). The full form is `swift_demangle`'s:
/// `closure #1 () -> () in Demo.ViewController.viewDidLoad() -> ()`.
package enum Demangler {
    /// How much of a Swift name to show.
    package enum Style: Sendable {
        /// As Apple's crash reports and atos show it (the default).
        case simplified
        /// Everything the mangling holds: module names, types, specialization details.
        case full
    }

    /// Longest name handed to a demangler.
    ///
    /// Printing a mangled name can expand it a great deal (substitutions are
    /// printed in full each time), so the bound is on what goes in; real Swift names stay well under it.
    package static let maxMangledLength = 8192
    /// Longest demangled name returned; past it the name is not demangled (the mangled name is kept, as
    /// LLVM's and Swift's tools keep it), so no reader holds or prints a name without bound.
    package static let maxDemangledLength = 1 << 16
    /// How long a C++ name that may print past ``maxDemangledLength`` may take to demangle, in milliseconds, and
    /// how much memory beyond the process's own: real names take microseconds and kilobytes.
    static let sandboxTimeoutMilliseconds: Int32 = 1_000
    static let sandboxMemoryBytes: UInt64 = 64 << 20
    /// How long the worker process may take over one Swift name before it is replaced: real names take
    /// microseconds, so this only has to outlast a machine too loaded to schedule the worker.
    static let workerTimeoutMilliseconds: Int32 = 3_000

    /// The readable form of `name`; nil when it is not a Swift or C++ mangled name, or does not demangle.
    ///
    /// A C name such as `main` and a name longer than ``maxMangledLength`` give nil too. Names are accepted with or
    /// without the Mach-O leading underscore (`_$s4Demo…` and `$s4Demo…`, `__ZN…` and `_ZN…`).
    package static func demangle(_ name: String, style: Style = .simplified) -> String? {
        guard var bytes = mangledBytes(name) else { return nil }
        switch kind(of: bytes) {
        case .cxx:
            // Both styles print a C++ name as LLVM's demangler does (Demangler+CXX.swift).
            return demangleCXX(bytes)
        case .swiftOld:
            // Only the simplified form of the Swift 1-3 manglings is read (the runtime reads none of them).
            return SwiftOldDemangler.simplified(bytes)
        case .swift, nil:
            break
        }
        bytes.append(0)
        let result: String?
        switch style {
        case .simplified:
            result = RuntimeDemanglers.simplified(bytes) ?? RuntimeDemanglers.swift(bytes)
        case .full:
            result = RuntimeDemanglers.swift(bytes)
        }
        guard let result, !result.isEmpty, result.utf8.elementsEqual(bytes.dropLast()) == false else { return nil }
        return result
    }

    /// True when `name` carries a Swift or C++ mangling prefix (whether or not it then demangles).
    package static func isMangled(_ name: String) -> Bool {
        mangledBytes(name) != nil
    }

    enum Kind { case swift, swiftOld, cxx }

    /// The name's bytes without a Mach-O underscore before a mangling prefix; nil when it has no such prefix or is
    /// too long.
    static func mangledBytes(_ name: String) -> [UInt8]? {
        let utf8 = name.utf8
        guard !utf8.isEmpty, utf8.count <= maxMangledLength + 1, !utf8.contains(0) else { return nil }
        var bytes = Array(utf8)
        if kind(of: bytes) == nil, bytes.first == UInt8(ascii: "_"), kind(of: Array(bytes.dropFirst())) != nil {
            bytes.removeFirst()
        }
        guard kind(of: bytes) != nil, bytes.count <= maxMangledLength else { return nil }
        return bytes
    }

    /// Swift's prefixes of every era: `_T` (Swift 1 to 3, read here by ``SwiftOldDemangler``), `_T0` (Swift 4.0 and
    /// 4.1), `$S` (4.2), `$s` (5 and later), `$e` (Embedded Swift), each with or without an underscore before it on
    /// Apple platforms; C++'s `_Z` (Itanium ABI) and `___Z` (a block's invocation function in a C++ function,
    /// `___Z3fooi_block_invoke`).
    static func kind(of bytes: [UInt8]) -> Kind? {
        func starts(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }
        if starts("$s") || starts("$S") || starts("$e") || starts("_$s") || starts("_$S") || starts("_$e")
            || starts("_T0") || starts("@__swiftmacro_")
        {
            return bytes.count > 2 ? .swift : nil
        }
        if starts("_T"), bytes.count > 3 { return .swiftOld }
        if starts("_Z"), bytes.count > 2 { return .cxx }
        if starts("___Z"), bytes.count > 4 { return .cxx }
        return nil
    }
}
