import CDemangleSandbox

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The demangling entry points of the runtimes linked into the process, found by name when first used.
///
/// Each is called through a C function pointer with its documented C signature, never as a Swift function, so
/// the calling convention is the C one the runtime exports. Every result is copied into a Swift string and the
/// runtime's buffer freed at once.
enum RuntimeDemanglers {
    /// `swift_demangle` (Swift runtime, public ABI): name, length, output buffer, its size, flags (must be 0).
    typealias SwiftDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?, UInt32
        ) -> UnsafeMutablePointer<CChar>?
    /// `_swift_backtrace_demangle` (Swift runtime, the backtracer's entry point, simplified form).
    ///
    /// Its arguments are name, length, output buffer, its size, and in some runtime versions a status pointer. A
    /// valid status pointer is always passed, so a runtime whose function takes four arguments simply ignores it.
    typealias BacktraceDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?
    /// `__cxa_demangle` (C++ ABI): NUL-terminated name, output buffer, its length, status.
    typealias CXXDemangle =
        @convention(c) (
            UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int32>?
        ) -> UnsafeMutablePointer<CChar>?

    // Linked by name first (a static binary exports no symbol `dlsym` could find: demangle_worker.h), by
    // `dlsym` when the runtime lacks one.
    static let swiftDemangle: SwiftDemangle? = apm_linked_swift_demangle() ?? lookUp("swift_demangle")
    static let backtraceDemangle: BacktraceDemangle? =
        apm_linked_backtrace_demangle() ?? lookUp("_swift_backtrace_demangle")
    static let cxxDemangle: CXXDemangle? = lookUp("__cxa_demangle")

    private static func lookUp<Function>(_ symbol: String) -> Function? {
        guard let handle = dlopen(nil, RTLD_NOW), let address = dlsym(handle, symbol) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    /// Apple's simplified form of a Swift or C++ name; `bytes` is NUL-terminated.
    static func simplified(_ bytes: [UInt8]) -> String? {
        inWorker(Int32(APM_WORKER_SIMPLIFIED), bytes)
    }

    /// The full form of a Swift name; `bytes` is NUL-terminated.
    static func swift(_ bytes: [UInt8]) -> String? {
        inWorker(Int32(APM_WORKER_FULL), bytes)
    }

    /// How many worker processes were forked: one, unless a name ended one (tests check a crash costs one name).
    static var workerForks: UInt { UInt(apm_demangle_worker_forks()) }

    /// Runs one of the Swift runtime's demanglers in the worker process (demangle_worker.h).
    ///
    /// The runtime aborts on some malformed names, and a name from a hostile file must not end the process reading
    /// it. Nil when the name does not demangle, its result is longer than ``Demangler/maxDemangledLength``, or the
    /// worker died or stalled on it.
    private static func inWorker(_ op: Int32, _ bytes: [UInt8]) -> String? {
        guard backtraceDemangle != nil || swiftDemangle != nil else { return nil }
        let simplifiedFunction: apm_backtrace_demangle_fn? = backtraceDemangle
        let fullFunction: apm_swift_demangle_fn? = swiftDemangle
        return written(by: bytes, minimumLength: 0) { name, into, capacity in
            apm_demangle_in_worker(
                op,
                simplifiedFunction,
                fullFunction,
                name.baseAddress,
                max(name.count - 1, 0),
                into,
                capacity,
                Demangler.workerTimeoutMilliseconds,
                Demangler.sandboxMemoryBytes
            )
        }
    }

    /// The readable form of an Itanium C++ name; `bytes` is NUL-terminated.
    static func cxx(_ bytes: [UInt8]) -> String? {
        guard let function = cxxDemangle else { return nil }
        var status: Int32 = 0
        let result = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { name in function(name.baseAddress, nil, nil, &status) }
        }
        guard status == 0 else {
            free(result)
            return nil
        }
        return take(result)
    }

    /// The readable form of an Itanium C++ name that may print past the length limit; nil past the limits.
    ///
    /// A child process runs the demangler and is stopped at the time and memory limits. `bytes` is
    /// NUL-terminated.
    static func cxxSandboxed(_ bytes: [UInt8]) -> String? {
        guard let function = cxxDemangle else { return nil }
        return written(by: bytes, minimumLength: 1) { name, into, capacity in
            apm_demangle_sandboxed(
                function,
                name.baseAddress,
                into,
                capacity,
                Demangler.sandboxTimeoutMilliseconds,
                Demangler.sandboxMemoryBytes
            )
        }
    }

    /// What a demangler running in another process wrote: both child-process demanglers hand back text through a
    /// buffer of ``Demangler/maxDemangledLength`` bytes and a length, negative when they failed or were stopped.
    ///
    /// `demangle` gets `bytes` (NUL-terminated) as C characters, the buffer and its capacity; a returned length
    /// under `minimumLength` or past the buffer is no answer.
    private static func written(
        by bytes: [UInt8],
        minimumLength: Int,
        _ demangle: (UnsafeBufferPointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
    ) -> String? {
        let capacity = Demangler.maxDemangledLength
        var output = [UInt8](repeating: 0, count: capacity)
        let length = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { name in
                output.withUnsafeMutableBufferPointer { out in
                    out.withMemoryRebound(to: CChar.self) { into in demangle(name, into.baseAddress, capacity) }
                }
            }
        }
        guard length >= minimumLength, length <= capacity else { return nil }
        return String(decoding: output[0..<length], as: UTF8.self)
    }

    /// Copies a malloc'ed C string and frees it; nil when it is longer than ``Demangler/maxDemangledLength``.
    private static func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        let length = strnlen(pointer, Demangler.maxDemangledLength + 1)
        guard length <= Demangler.maxDemangledLength else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }
}
