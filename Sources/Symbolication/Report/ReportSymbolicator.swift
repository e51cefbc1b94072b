import APMInspectCore
import CrashReportParsing

/// Resolves a crash report's frames against debug information found by UUID, as symbolicatecrash and Xcode do.
///
/// Each frame's image is the report's binary image whose range holds the frame's address; its UUID (never its
/// name) picks the debug information. The file address asked for is the runtime address with pointer
/// authentication bits cleared, minus the image's load address, plus its `__TEXT` vmaddr; return addresses are
/// asked for one byte back (on 32-bit ARM: the Thumb bit cleared, then a halfword back) so that a call at the very
/// end of a function, or of an inlined range, resolves to the caller's line and not the next one. Frames that already carry a symbol are left as the report had them unless
/// ``force`` is set.
public struct ReportSymbolicator: Sendable {
    /// Where the debug information comes from (a `DSYMStore`, or a source of your own).
    public var source: any SymbolSource
    /// Re-resolves frames that already have a symbol (and drops the inlined frames the report had for them).
    public var force: Bool
    /// Turns a mangled name into the one people read; nil keeps the name as the binary spells it.
    public var demangle: @Sendable (String) -> String?

    /// A symbolicator over `source`; `force` re-symbolicates frames that already have a symbol.
    public init(
        source: any SymbolSource,
        force: Bool = false,
        demangle: @escaping @Sendable (String) -> String? = ReportSymbolicator.displayName
    ) {
        self.source = source
        self.force = force
        self.demangle = demangle
    }

    /// The name shown for a mangled one (Swift, C++) as Apple's reports show it; nil for a name that is not
    /// mangled.
    public static let displayName: @Sendable (String) -> String? = { Demangler.demangle($0) }

    /// arm64e signs return addresses and function pointers in the bits above the virtual address; user space
    /// addresses on every Apple platform fit in 47 bits, so clearing the rest strips any signature (what atos,
    /// symbolicatecrash and Sentry's symbolicator do).
    package static let addressMask: UInt64 = (1 << 47) - 1

    /// The file address for a runtime `address` of an image loaded at `base` whose `__TEXT` vmaddr is
    /// `textVMAddress`; nil when the address is below the image or the sum overflows.
    package static func fileAddress(runtime address: UInt64, base: UInt64, textVMAddress: UInt64) -> UInt64? {
        let stripped = address & addressMask
        let strippedBase = base & addressMask
        guard stripped >= strippedBase else { return nil }
        let (sum, overflow) = textVMAddress.addingReportingOverflow(stripped - strippedBase)
        return overflow ? nil : sum
    }

    /// The address looked up for a frame at `fileAddress`: a return address is stepped back into the call that
    /// made it, so a call at the very end of a function (a `noreturn` one) names its caller and its line.
    ///
    /// On 32-bit ARM a return address of Thumb code carries the Thumb bit: `0x102f` returns to the instruction at
    /// `0x102e`, after a call that starts at `0x102a` (a 32-bit `bl`) or `0x102c` (a 16-bit `blx r3`). One byte
    /// back from the written address is that next instruction, the first byte of the next function when the call
    /// ended its own: the bit is cleared and the step is a halfword, which lands inside either call (Thumb and ARM
    /// instructions are at least halfword aligned). A crashed frame's address is the instruction itself; only
    /// the bit is cleared, the instruction never being at an odd address.
    package static func lookupAddress(_ fileAddress: UInt64, isReturnAddress: Bool, isARM32: Bool) -> UInt64 {
        guard isARM32 else { return isReturnAddress && fileAddress > 0 ? fileAddress - 1 : fileAddress }
        let instruction = fileAddress & ~1
        return isReturnAddress && instruction >= 2 ? instruction - 2 : instruction
    }

    /// The report with its frames resolved, and what was resolved and what could not be.
    public func symbolicate(_ report: CrashReport) -> SymbolicationOutcome {
        var session = Session(symbolicator: self, images: report.binaryImages)
        var symbolicated = report
        var threadOrigins: [[Int]] = []
        var changedThreads: [Set<Int>] = []
        for t in report.threads.indices {
            let result = session.resolve(report.threads[t].frames, keyPath: "threads[\(t)]") { position in
                position > 0
            }
            symbolicated.threads[t].frames = result.frames
            threadOrigins.append(result.origins)
            changedThreads.append(result.changed)
        }
        var exceptionOrigins: [Int] = []
        var changedException = Set<Int>()
        if let frames = report.lastExceptionBacktrace {
            // Every frame of an exception backtrace is a return address: the backtrace was taken by a call.
            let result = session.resolve(frames, keyPath: "lastExceptionBacktrace") { _ in true }
            symbolicated.lastExceptionBacktrace = result.frames
            exceptionOrigins = result.origins
            changedException = result.changed
        }
        // The report KSCrash's handler wrote when it crashed (KSCrash's text appends it): its frames are in the
        // same process, so the same images resolve them.
        var recrashOrigins: [[Int]] = []
        var changedRecrash: [Set<Int>] = []
        let resolvedBeforeRecrash = session.resolvedFrames
        if var recrash = report.recrashReport {
            for t in recrash.threads.indices {
                let result = session.resolve(recrash.threads[t].frames, keyPath: "recrashReport.threads[\(t)]") {
                    position in position > 0
                }
                recrash.threads[t].frames = result.frames
                recrashOrigins.append(result.origins)
                changedRecrash.append(result.changed)
            }
            if session.resolvedFrames > resolvedBeforeRecrash {
                recrash.signature = nil
                recrash.signatureFrames = nil
                recrash.deriveFacts(asPartOf: report)
            }
            symbolicated.recrashReport = recrash
        }
        session.reportUnresolved()
        if resolvedBeforeRecrash > 0 {
            // The signature groups reports by their top app frames: recomputed on the names just resolved.
            symbolicated.signature = nil
            symbolicated.signatureFrames = nil
            symbolicated.deriveFacts()
        }
        return SymbolicationOutcome(
            report: symbolicated,
            diagnostics: session.diagnostics,
            resolvedFrames: session.resolvedFrames,
            threadOrigins: threadOrigins,
            exceptionOrigins: exceptionOrigins,
            changedThreadFrames: changedThreads,
            changedExceptionFrames: changedException,
            recrashThreadOrigins: recrashOrigins,
            changedRecrashThreadFrames: changedRecrash
        )
    }
}

extension ReportSymbolicator {
    /// True when the report's name for a frame says only where it is, not what it is, so the frame counts as
    /// unnamed and is resolved like a bare address: `<redacted>` (what iOS wrote for system functions before
    /// iOS 15), `???`, and the image's own name (`UIKitCore + 16432`, the image plus an offset, as some tools write
    /// an unsymbolicated frame).
    package static func isPlaceholder(_ symbol: String, of frame: CrashReport.Frame) -> Bool {
        symbol == "<redacted>" || symbol == "???" || symbol.isEmpty || symbol == frame.image
    }

    /// The state of one report's symbolication: the images sorted for lookup, each UUID's debug information
    /// looked up once, and one diagnostic per image that has none.
    fileprivate struct Session {
        let symbolicator: ReportSymbolicator
        let images: [CrashReport.BinaryImage]
        /// Image positions sorted by base address.
        let sorted: [Int]
        var lookups: [String: SymbolLookup] = [:]
        var reported: Set<String> = []
        var diagnostics: [Diagnostic] = []
        var resolvedFrames = 0
        /// Frames whose image's debug information was found but had nothing at their address, by image.
        var unresolved: [Int: Int] = [:]

        /// One warning per image whose debug information answered nothing for some of its frames: a dSYM of
        /// another build with the same UUID is unlikely, a damaged or stripped one is not.
        mutating func reportUnresolved() {
            for (position, count) in unresolved.sorted(by: { $0.key < $1.key }) {
                let image = images[position]
                let name = image.name ?? image.path ?? "?"
                let uuid = image.uuid.map { " (UUID \(Self.dashed($0)))" } ?? ""
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        .symbolicateNoFunction,
                        "the dSYM for image \(name)\(uuid) has no function at \(count) of its frames' addresses: "
                            + "they stay unsymbolicated",
                        at: SourceLocation(keyPath: "binaryImages[\(position)]")
                    )
                )
            }
        }

        init(symbolicator: ReportSymbolicator, images: [CrashReport.BinaryImage]) {
            self.symbolicator = symbolicator
            self.images = images
            sorted = images.indices.sorted { images[$0].base.value < images[$1].base.value }
        }

        struct Resolved {
            var frames: [CrashReport.Frame]
            var origins: [Int]
            var changed: Set<Int>
        }

        /// Resolves `frames`; `isReturnAddress` says, by position, which addresses are return addresses.
        mutating func resolve(
            _ frames: [CrashReport.Frame],
            keyPath: String,
            isReturnAddress: (Int) -> Bool
        ) -> Resolved {
            var output: [CrashReport.Frame] = []
            output.reserveCapacity(frames.count)
            var origins: [Int] = []
            var changed = Set<Int>()
            // Inlined frames the report already had, held until the concrete frame they belong to is decided.
            var pending: [Int] = []
            for position in frames.indices {
                let frame = frames[position]
                if frame.inlined == true {
                    pending.append(position)
                    continue
                }
                let chain = resolveFrame(frame, isReturnAddress: isReturnAddress(position))
                if let chain {
                    // The report's own inlined frames for this address are replaced by the chain found.
                    for held in pending where frames[held].address != frame.address {
                        output.append(frames[held])
                        origins.append(held)
                    }
                    for var resolved in chain {
                        resolved.index = output.count
                        output.append(resolved)
                        origins.append(position)
                    }
                    changed.insert(position)
                    resolvedFrames += 1
                } else {
                    for held in pending {
                        output.append(frames[held])
                        origins.append(held)
                    }
                    output.append(frame)
                    origins.append(position)
                }
                pending = []
            }
            for held in pending {
                output.append(frames[held])
                origins.append(held)
            }
            for k in output.indices { output[k].index = k }
            return Resolved(frames: output, origins: origins, changed: changed)
        }

        /// The most frames one address becomes.
        static let maxChain = 64

        /// The frames `frame` becomes (innermost inlined first), or nil to keep it as written.
        mutating func resolveFrame(_ frame: CrashReport.Frame, isReturnAddress: Bool) -> [CrashReport.Frame]? {
            if let symbol = frame.symbol, !symbolicator.force, !ReportSymbolicator.isPlaceholder(symbol, of: frame) {
                return nil
            }
            guard let address = frame.address?.value, let imageIndex = image(for: frame, at: address) else {
                return nil
            }
            let binary = images[imageIndex]
            guard let uuid = binary.uuid, uuid.count == 32, uuid != String(repeating: "0", count: 32) else {
                return nil
            }
            guard let image = lookup(uuid: uuid, image: binary, position: imageIndex) else { return nil }
            guard
                let fileAddress = ReportSymbolicator.fileAddress(
                    runtime: address,
                    base: binary.base.value,
                    textVMAddress: image.textVMAddress
                )
            else { return nil }
            let lookup = ReportSymbolicator.lookupAddress(
                fileAddress,
                isReturnAddress: isReturnAddress,
                isARM32: image.isARM32
            )
            let step = fileAddress - lookup
            let locations = image.resolver.locations(at: lookup)
            guard !locations.isEmpty else {
                unresolved[imageIndex, default: 0] += 1
                return nil
            }
            // A chain deeper than any compiler inlines comes from damaged DWARF: the innermost functions and the
            // concrete one are kept, so one address never turns into thousands of frames.
            let kept =
                locations.count <= Self.maxChain
                ? locations : Array(locations.prefix(Self.maxChain - 1)) + [locations[locations.count - 1]]
            return kept.enumerated().map { position, location in
                var resolved = frame
                resolved.inlined = position < kept.count - 1 ? true : nil
                let display = symbolicator.demangle(location.symbol)
                resolved.symbol = display ?? location.symbol
                resolved.mangledSymbol = display == nil || display == location.symbol ? nil : location.symbol
                // The offset is the written address's: the step back was only to find the right line.
                let (offset, overflow) = location.symbolOffset.addingReportingOverflow(step)
                resolved.symbolOffset = overflow ? location.symbolOffset : offset
                resolved.file = location.file
                resolved.line = location.line
                resolved.column = location.column
                return resolved
            }
        }

        /// The binary image that holds `address`: by range where the report gives one, else the nearest image
        /// below the address that carries the frame's image name.
        func image(for frame: CrashReport.Frame, at address: UInt64) -> Int? {
            var low = 0
            var high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if images[sorted[mid]].base.value <= address { low = mid + 1 } else { high = mid }
            }
            // A few images below the address at most: images do not overlap, so the nearest one decides unless
            // the report gives no end for it.
            for k in stride(from: low - 1, through: max(0, low - 64), by: -1) {
                let candidate = images[sorted[k]]
                if let end = candidate.end?.value {
                    if address <= end, candidate.source != "A" { return sorted[k] }
                } else if let name = frame.image, candidate.name == name {
                    return sorted[k]
                }
            }
            return nil
        }

        /// The debug information for `uuid`, looked up once; a diagnostic the first time it is missing.
        mutating func lookup(uuid: String, image: CrashReport.BinaryImage, position: Int) -> SymbolImage? {
            let result: SymbolLookup
            if let known = lookups[uuid] {
                result = known
            } else {
                result = symbolicator.source.image(uuid: uuid, arch: image.arch)
                lookups[uuid] = result
            }
            switch result {
            case .found(let found):
                return found
            case .missing:
                if reported.insert(uuid).inserted {
                    let name = image.name ?? image.path ?? "?"
                    let arch = image.arch.map { ", \($0)" } ?? ""
                    diagnostics.append(
                        Diagnostic(
                            image.isApp ? .warning : .note,
                            .symbolicateMissingDSYM,
                            "no dSYM for image \(name) (UUID \(Self.dashed(uuid))\(arch)): its frames stay "
                                + "unsymbolicated"
                                + (image.isApp
                                    ? ""
                                    : " (a system image: its symbols are in Xcode's DeviceSupport folder for the "
                                        + "report's OS build, given with --symbols or --dsym)"),
                            at: SourceLocation(keyPath: "binaryImages[\(position)]")
                        )
                    )
                }
                return nil
            case .failed(let error):
                if reported.insert(uuid).inserted {
                    let name = image.name ?? image.path ?? "?"
                    diagnostics.append(
                        Diagnostic(
                            .warning,
                            .symbolicateUnreadableDSYM,
                            "the dSYM for image \(name) (UUID \(Self.dashed(uuid))) cannot be read: "
                                + "\(error.message); its frames stay unsymbolicated",
                            at: SourceLocation(keyPath: "binaryImages[\(position)]")
                        )
                    )
                }
                return nil
            }
        }

        /// `82D13D98-219E-3040-B62A-07A297007A7C`, as Apple's tools print a UUID.
        static func dashed(_ uuid: String) -> String {
            guard uuid.utf8.count == 32 else { return uuid }
            let upper = Array(uuid.uppercased())
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32]
            return groups.map { String(upper[$0]) }.joined(separator: "-")
        }
    }
}
