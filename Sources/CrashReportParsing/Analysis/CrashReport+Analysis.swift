import APMInspectCore
import AppleDeviceCatalog
import ByteAccess

extension CrashReport {
    /// Fills in what follows from the fields read: OS parts, device name, exception and termination decoding,
    /// frame attribution to binary images, app frames, the "not a crash" flag and the signature.
    mutating func analyze() {
        if let written = osVersion {
            let parsed = OSVersion(parsing: written)
            osName = parsed.name.isEmpty ? nil : parsed.name
            osVersionNumber = parsed.version.isEmpty ? nil : parsed.version
            osBuild = parsed.build.isEmpty ? nil : parsed.build
            platform = Self.commonPlatforms[parsed.name] ?? parsed.platform
        }
        if hardwareModel == nil, let profile = blocks.first(where: { $0.title == "System Profile" }) {
            // macOS text reports name the Mac only in the System Profile: `Model: MacBookPro16,1, BootROM …`.
            for line in profile.lines {
                let trimmed = line.trimmingASCIIWhitespace()
                guard trimmed.hasPrefix("Model: ") else { continue }
                // The identifier itself holds a comma (`MacBookPro16,1`); fields are separated by ", ".
                let rest = trimmed.dropFirst(7)
                let model = rest.byteRange(of: ", ").map { rest[..<$0.lowerBound] } ?? rest
                if !model.isEmpty { hardwareModel = String(model) }
                break
            }
        }
        if applicationSpecificInformation == nil,
            let block = blocks.first(where: { $0.title == "Application Specific Information" })
        {
            let lines = block.lines.map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
            if !lines.isEmpty { applicationSpecificInformation = lines }
        }
        if let model = hardwareModel { deviceName = DeviceCatalog.model(for: model)?.name }
        if var value = exception {
            // Pointer authentication exists only on arm64e: the images' architecture says whether it can apply.
            value.decode(isArm64e: binaryImages.contains { $0.arch == "arm64e" } || codeType == "arm64e")
            exception = value
        }
        if var value = termination {
            value.decodeText()
            termination = value
        }
        if lastExceptionBacktrace == nil,
            let block = blocks.first(where: { $0.title.hasPrefix("Application Specific Backtrace") })
        {
            // macOS names the Last Exception Backtrace this way; JSON `asiBacktraces` hold the same text frames.
            let frames = block.lines.compactMap { line in
                CrashTextReader.parseFrame(Substring(line).drop { $0 == " " || $0 == "\t" }, raw: Substring(line))
            }
            if !frames.isEmpty { lastExceptionBacktrace = frames }
        }
        markAppImages()
        // In place: copying every frame out and back retains and releases each of its strings.
        let needsNames =
            threads.contains { $0.frames.contains(where: ImageIndex.needsNameLookup) }
            || lastExceptionBacktrace?.contains(where: ImageIndex.needsNameLookup) == true
        let index = ImageIndex(binaryImages, process: process, byName: needsNames)
        for t in threads.indices {
            for f in threads[t].frames.indices { index.attribute(&threads[t].frames[f]) }
        }
        if var frames = lastExceptionBacktrace {
            // Taken out so the array stays uniquely referenced while its frames are updated.
            lastExceptionBacktrace = nil
            for f in frames.indices { index.attribute(&frames[f]) }
            lastExceptionBacktrace = frames
        }
        if let note = exception?.note {
            // Text reports say it only in the note; the flags are the model's one way of saying it.
            if exception?.isSimulated == nil, note.containsBytes("SIMULATED") { exception?.isSimulated = true }
            if exception?.isNonFatal == nil, note.containsBytes("NON-FATAL") { exception?.isNonFatal = true }
        }
        isNotACrash = exception?.isSimulated == true || exception?.isNonFatal == true
        computeSignature()
    }

    /// ``OSVersion/platform`` of the OS names reports use, worked out once by that same property: deciding it
    /// lowercases the name and runs several generic substring searches, which cost more than the rest of the OS
    /// version handling.
    private static let commonPlatforms: [String: OSVersion.Platform] = {
        let names = [
            "iPhone OS", "iOS", "iPadOS", "macOS", "Mac OS X", "OS X", "Watch OS", "watchOS", "tvOS", "Apple TVOS",
            "visionOS", "xrOS",
        ]
        var table: [String: OSVersion.Platform] = [:]
        for name in names { table[name] = OSVersion(name: name, version: "", build: "", raw: name).platform }
        return table
    }()

    private mutating func markAppImages() {
        let executable = path
        let executableLength = path?.utf8.count ?? -1
        let processLength = process?.utf8.count ?? -1
        // A path holding neither `.app` nor `Bundle` is outside any bundle, and cannot be the executable when the
        // executable's path holds one of them: such paths are ruled out on their bytes, without making them text.
        let executableInBundle = executable.map { $0.containsBytes(".app") || $0.containsBytes("Bundle") } ?? true
        // A system library's path is never the app's, unless the executable itself lives there: told from the first
        // bytes, the cheapest test, for most images.
        let executableIsSystem =
            executable.map {
                $0.hasPrefix("/System/") || $0.hasPrefix("/usr/lib/") || $0.hasPrefix("/Library/Apple/")
            } ?? true
        for k in binaryImages.indices {
            if !executableIsSystem, let written = binaryImages[k].pathText, written.startsWithSystemPath {
                // Not the app's by its path; the name test below still applies.
            } else if executableInBundle, let written = binaryImages[k].pathText, !written.mayContain(".app"),
                !written.mayContain("Bundle")
            {
                // Not the app's by its path; the name test below still applies.
            } else if let imagePath = binaryImages[k].path {
                // Read and set in place: copying the image out and back retains and releases all its strings.
                // Most images are system libraries outside any bundle: the system-path tests run only for bundles.
                let inBundle = imagePath.containsBytes(".app/") || imagePath.containsBytes("/Bundle/Application/")
                // Lengths first: comparing two strings of different lengths still compares their bytes.
                let isApp =
                    (imagePath.utf8.count == executableLength && imagePath == executable)
                    || (inBundle
                        && !(imagePath.hasPrefix("/System/") || imagePath.hasPrefix("/usr/lib/")
                            || imagePath.hasPrefix("/Library/Apple/")
                            || imagePath.containsBytes("/Developer/Platforms/")))
                if isApp { binaryImages[k].isApp = true }
            }
            if let name = binaryImages[k].name, name.utf8.count == processLength, name == process,
                binaryImages[k].source != "S"
            {
                binaryImages[k].isApp = true
            }
        }
    }

    /// The image containing `address` (end inclusive).
    func image(containing address: UInt64) -> BinaryImage? {
        binaryImages.first { image in
            guard image.base.value <= address else { return false }
            if let end = image.end { return address <= end.value }
            return false
        }
    }

    mutating func computeSignature() {
        let crashed = crashedThread.flatMap { index in threads.firstIndex { $0.index == index } }
        let candidates: ArraySlice<Frame> =
            if let frames = lastExceptionBacktrace, !frames.isEmpty {
                frames[...]
            } else if let crashed {
                threads[crashed].frames[...]
            } else {
                []
            }
        // The first five app frames, or the first three frames when there are none. Chosen by index: iterating the
        // frames themselves copies each one, retaining and releasing all its strings.
        var chosen: [Int] = []
        for i in candidates.indices where candidates[i].isAppFrame == true {
            chosen.append(i)
            if chosen.count == 5 { break }
        }
        if chosen.isEmpty { chosen = Array(candidates.indices.prefix(3)) }
        var parts: [String] = []
        for i in chosen {
            let image = candidates[i].image ?? "?"
            if let symbol = candidates[i].symbol {
                parts.append(image + "`" + symbol)
            } else if let offset = candidates[i].imageOffset {
                parts.append(image + "+0x" + String(offset, radix: 16))
            } else if let address = candidates[i].address {
                parts.append("\(image)@\(address)")
            }
        }
        // A signal-only report writes the signal as its type too: counted once, so its signature stays the same.
        let machType = exception?.type == exception?.signal ? nil : exception?.type
        let kind = [machType, exception?.signal, termination?.namespace].compactMap { $0 }.joined(separator: " ")
        guard !parts.isEmpty || !kind.isEmpty else { return }
        // FNV-1a over `kind` and the parts joined by newlines, fed piece by piece instead of joined first.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func feed(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01B3
                }
            }
        }
        feed(kind)
        for part in parts {
            feed("\n")
            feed(part)
        }
        signature = String(unsafeUninitializedCapacity: 16) { output in
            // Sixteen lowercase hex digits, leading zeros kept.
            for k in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * k)) & 0xF
                output[k] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 16
        }
        signatureFrames = parts
    }
}

/// Binary images sorted by base address, for attributing thousands of frames without a linear search each.
private struct ImageIndex {
    /// What attribution reads of an image.
    private struct Entry {
        var base: UInt64
        var end: UInt64?
        var name: String?
    }

    private let sorted: [Entry]
    private let byName: [String: UInt64]
    /// The app's image names; few, so compared one by one (names copied from the same image share storage, which
    /// makes each comparison a pointer check) instead of hashed per frame.
    private let appNames: [String]
    private let appNameSet: Set<String>?
    private let process: String?

    /// Builds the index; `byName` says whether some frame needs an image looked up by name (see
    /// ``needsNameLookup(_:)``), since most reports have none and the table costs a hash per image.
    init(_ images: [CrashReport.BinaryImage], process: String?, byName needed: Bool = true) {
        let entries = images.map { Entry(base: $0.base.value, end: $0.end?.value, name: $0.name) }
        // The same comparisons as sorting the images themselves, so images that share a base end in the same order.
        // Reports mostly list images by address already; the standard sort is stable, so skipping it then keeps
        // the same order.
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { $0.base <= $1.base }
        sorted = inOrder ? entries : entries.sorted { $0.base < $1.base }
        var names: [String: UInt64] = [:]
        if needed {
            for image in images { if let name = image.name, names[name] == nil { names[name] = image.base.value } }
        }
        byName = names
        appNames = images.filter(\.isApp).compactMap(\.name)
        appNameSet = appNames.count > 8 ? Set(appNames) : nil
        self.process = process
    }

    /// True when attributing `frame` looks its image up by name: it has an offset and an image but no address.
    static func needsNameLookup(_ frame: CrashReport.Frame) -> Bool {
        frame.address == nil && frame.imageOffset != nil && frame.image != nil
    }

    /// The entry whose range (end inclusive) contains `address`.
    private func entry(containing address: UInt64) -> Entry? {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].base <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let candidate = sorted[low - 1]
        guard let end = candidate.end, address <= end else { return nil }
        return candidate
    }

    /// Fills in the frame's address, image and offset from the images, and whether it is the app's.
    func attribute(_ frame: inout CrashReport.Frame) {
        if frame.address == nil, let offset = frame.imageOffset, let name = frame.image, let base = byName[name] {
            let (sum, overflow) = base.addingReportingOverflow(offset)
            if !overflow { frame.address = HexValue(sum) }
        }
        // The lookup only fills what is missing: JSON frames come with both. Text reports cut long image names to
        // their tail behind `...`: the image at the address gives the whole name back.
        // The name is read once for both tests: every read of it is a retain and a release of the string.
        var truncated = false
        var app: Bool?
        if let name = frame.image {
            truncated = Self.isTruncatedName(name)
            app = isApp(name)
        }
        if frame.image == nil || frame.imageOffset == nil || truncated, let address = frame.address?.value,
            let entry = entry(containing: address)
        {
            if frame.image == nil, let name = entry.name {
                frame.image = name
                app = isApp(name)
            }
            if truncated, let written = frame.image, let full = entry.name, full.hasSuffix(written.dropFirst(3)) {
                frame.image = full
                app = isApp(full)
            }
            if frame.imageOffset == nil { frame.imageOffset = address - entry.base }
        }
        if let app { frame.isAppFrame = app }
    }

    /// True for a name cut to its tail behind `...`, read on the bytes: `hasPrefix` goes through the generic
    /// Unicode-aware comparison for every frame.
    private static func isTruncatedName(_ name: String) -> Bool {
        var utf8 = name.utf8.makeIterator()
        return utf8.next() == 0x2E && utf8.next() == 0x2E && utf8.next() == 0x2E
    }

    /// True when `name` is one of the app's images or the process.
    ///
    /// Lengths are compared first: almost every frame is a system library whose name differs in length from the
    /// app's, and a length is read without comparing bytes.
    private func isApp(_ name: String) -> Bool {
        if let appNameSet { return appNameSet.contains(name) || name == process }
        let count = name.utf8.count
        for app in appNames where app.utf8.count == count && app == name { return true }
        if let process, process.utf8.count == count { return process == name }
        return false
    }
}

extension CrashReport.Exception {
    /// Splits `EXC_BAD_ACCESS (SIGSEGV)`, reads the numeric codes, and names what they mean.
    mutating func decode(isArm64e: Bool = false) {
        // PLCrashReporter writes only the signal (`Exception Type: SIGSEGV`): it is the signal, and stays the type
        // as written, since the report names no Mach exception.
        // The checks run on UTF-8 bytes: these few short strings cost more with Character-level operations than
        // the rest of a small report's analysis.
        if signal == nil, let written = type, written.utf8.starts(with: "SIG".utf8), !written.utf8.contains(0x20) {
            signal = written
        }
        if signal == nil, let written = type, written.utf8.last == UInt8(ascii: ")"),
            let open = written.utf8.lastIndex(of: UInt8(ascii: "("))
        {
            let inner = written.utf8.index(after: open)..<written.utf8.index(before: written.utf8.endIndex)
            signal = String(written[inner])
            type = written[..<open].trimmingSpaces()
        }
        if codeValues == nil, let written = codes {
            // macOS 12 prints a symbolic line and a numeric one: take the numeric one, wherever it is.
            for whole in written.utf8.split(separator: UInt8(ascii: "\n")) {
                // `KERN_INVALID_ADDRESS at 0x8` names its code; old iOS and KSCrash write it in hex
                // (`0x00000000 at 0x3618da1c`): the codes are what comes before ` at `, the address is the fault's.
                var line = whole
                // A byte search: the standard library's generic `firstRange(of:)` cost about 50,000 instructions
                // a call, most of a report's exception decoding.
                if let offset = Array(whole).withBorrowedBytes({ $0.firstIndex(of: " at ") }) {
                    line = whole[..<whole.index(whole.startIndex, offsetBy: offset)]
                    guard line.starts(with: "0x".utf8) else { continue }
                }
                let tokens = line.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") })
                let values = tokens.compactMap { token -> HexValue? in
                    token.starts(with: "0x".utf8) ? HexValue(parsing: Substring(token)) : nil
                }
                if !values.isEmpty {
                    codeValues = values
                    break
                }
            }
        }
        let isBadAccess = type == "EXC_BAD_ACCESS" || signal == "SIGSEGV" || signal == "SIGBUS"
        if isBadAccess, let code = codeValues?.first?.value {
            kernReturn = Self.kernReturnNames[code]
        }
        // A general-protection fault reports no address: its second code is 0, not the address that faulted.
        let isGeneralProtection = [codes, subtype].contains { $0?.containsBytes("EXC_I386_GPFLT") == true }
        if isBadAccess, !isGeneralProtection, let values = codeValues, values.count > 1 { faultAddress = values[1] }
        for text in [subtype, codes].compactMap({ $0 }) {
            // Every name starts with `K` or `E`: other texts skip the search of the table.
            if kernReturn == nil, let first = text.utf8.first, first == UInt8(ascii: "K") || first == UInt8(ascii: "E"),
                let name = Self.kernReturnNames.values.first(where: { text.utf8.starts(with: $0.utf8) })
            {
                kernReturn = name
            }
            if let at = text.byteRange(of: " at ") {
                let token = text[at.upperBound...].prefix { !$0.isWhitespace }
                if faultAddress == nil { faultAddress = HexValue(parsing: token) }
            }
            if text.containsBytes("possible pointer authentication failure") {
                possiblePointerAuthenticationFailure = true
            }
        }
        let written = [codes, subtype].compactMap { $0 }
        meaning = Self.meaning(type: type, signal: signal, codes: written, isArm64e: isArm64e)
    }

    /// What the codes name, when it says more than the exception type: the same `EXC_BAD_ACCESS` is a general
    /// protection fault on Intel and an unmapped address on ARM.
    static func meaning(codes: [String], isArm64e: Bool) -> String? {
        func mentions(_ name: String) -> Bool { codes.contains { $0.containsBytes(name) } }
        if mentions("EXC_I386_GPFLT") {
            return "general-protection fault: usually a non-canonical (corrupted or garbage) pointer on x86_64"
        }
        if mentions("BUS_ADRALN") || mentions("EXC_ARM_DA_ALIGN") { return "misaligned memory access" }
        if mentions("KERN_PROTECTION_FAILURE") {
            return "bad memory access: memory that is mapped but protected against this access (a write to "
                + "read-only memory, or a jump to memory that is not executable)"
        }
        if mentions("possible pointer authentication failure"), isArm64e {
            return "bad memory access through a pointer that failed authentication (corrupted or forged)"
        }
        return nil
    }

    static func meaning(type: String?, signal: String?, codes: [String], isArm64e: Bool) -> String? {
        if let specific = meaning(codes: codes, isArm64e: isArm64e) { return specific }
        if signal == "SIGBUS", type == nil || type == "SIGBUS" || type == "EXC_BAD_ACCESS" {
            // A bus error: an access the memory system refused, not an unmapped page; pointer authentication
            // failures only exist on arm64e.
            return isArm64e
                ? "bus error: a misaligned access, memory that cannot back the access, or a pointer authentication failure"
                : "bus error: a misaligned access, or memory that cannot back the access"
        }
        return meaning(type: type, signal: signal)
    }

    /// Each starts with `K` or `E` (``decode(isArm64e:)`` skips other texts without searching).
    static let kernReturnNames: [UInt64: String] = [
        1: "KERN_INVALID_ADDRESS", 2: "KERN_PROTECTION_FAILURE", 5: "KERN_FAILURE", 8: "KERN_NO_ACCESS",
        9: "KERN_MEMORY_FAILURE", 10: "KERN_MEMORY_ERROR", 50: "KERN_CODESIGN_ERROR", 0x101: "EXC_ARM_DA_ALIGN",
        0x102: "EXC_ARM_DA_DEBUG",
    ]

    static func meaning(type: String?, signal: String?) -> String? {
        switch (type, signal) {
        case ("EXC_BAD_ACCESS", "SIGKILL"): "the OS killed the process (see the termination reason)"
        case ("EXC_BAD_ACCESS", _), (_, "SIGSEGV"): "bad memory access: a pointer to memory that is not mapped"
        case (_, "SIGBUS"): "bus error: a misaligned access, or memory that cannot back the access"
        case ("EXC_BAD_INSTRUCTION", _), (_, "SIGILL"):
            "illegal instruction (Swift runtime traps on Intel and the simulator)"
        case ("EXC_BREAKPOINT", _), (_, "SIGTRAP"):
            "trace trap: a Swift runtime error (force unwrap of nil, failed precondition, out-of-range index) or __builtin_trap"
        case ("EXC_ARITHMETIC", _), (_, "SIGFPE"): "arithmetic error such as division by zero"
        case ("EXC_CRASH", "SIGABRT"), (_, "SIGABRT"): "abort(): usually an uncaught Objective-C or C++ exception"
        case ("EXC_CRASH", "SIGKILL"), (_, "SIGKILL"): "the OS killed the process (see the termination reason)"
        case ("EXC_CRASH", "SIGQUIT"): "killed by another process"
        case ("EXC_GUARD", _): "a guarded resource (file descriptor, Mach port) was misused"
        case ("EXC_RESOURCE", _): "a resource limit (CPU, memory, wakeups, I/O) was exceeded"
        case ("00000020", _): "killed by the OS with a code (see Exception Codes)"
        default: nil
        }
    }
}

extension CrashReport.Termination {
    /// Reads the three text grammars of `Termination Reason` and the ` | `-separated `Termination Description`.
    mutating func decodeText() {
        if let written = raw, namespace == nil {
            // `separated(by:)` splits plain ASCII on its bytes: a Character-level split of a watchdog's termination
            // text (hundreds of bytes) cost more than the rest of the report's analysis. The pieces are the same.
            let lines = written.separated(by: "\n")
            let first = lines.first ?? ""
            if first.hasPrefix("Namespace ") {
                // `Namespace SPRINGBOARD, Code 0x8badf00d` (iOS 10–14) or `…, Code 11 Segmentation fault: 11` (macOS 12).
                let body = first.dropFirst("Namespace ".count)
                let comma = body.firstIndex(of: ",") ?? body.endIndex
                namespace = String(body[..<comma])
                if let codeRange = body.byteRange(of: "Code ") {
                    let after = body[codeRange.upperBound...]
                    let token = after.prefix { !$0.isWhitespace && $0 != "," }
                    code = HexValue(parsing: token)
                    let rest = after.dropFirst(token.count).trimmingSpaces()
                    if !rest.isEmpty { indicator = rest.hasPrefix(",") ? rest.dropFirst().trimmingSpaces() : rest }
                }
            } else {
                // `SIGNAL 5 Trace/BPT trap: 5`, `FRONTBOARD 2343432205`, or `CAROUSEL, free text` (watchOS).
                let tokens = first.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
                if let name = tokens.first {
                    namespace = name.hasSuffix(",") ? String(name.dropLast()) : String(name)
                    if tokens.count > 1, let value = HexValue(parsing: tokens[1]) {
                        code = value
                        if tokens.count > 2 { indicator = String(tokens[2]) }
                    } else if tokens.count > 1 {
                        indicator = first.dropFirst(name.count).trimmingSpaces()
                    }
                }
            }
            reasons += lines.dropFirst().filter { !$0.isEmpty }
        }
        if let text = description {
            let joined = text.separated(by: "\n").filter { !$0.isEmpty }.joined(separator: " ")
            let parts = joined.separated(by: " | ").map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            if namespace == nil, let first = parts.first, let comma = first.firstIndex(of: ",") {
                namespace = String(first[..<comma])
            }
            reasons += parts
        }
    }
}

extension Substring.UTF8View {
    /// True when `needle` occurs in these bytes.
    fileprivate func containsBytes(_ needle: String.UTF8View) -> Bool {
        guard let first = needle.first, count >= needle.count else { return needle.isEmpty }
        var index = startIndex
        while let found = self[index...].firstIndex(of: first) {
            if self[found...].starts(with: needle) { return true }
            index = self.index(after: found)
        }
        return false
    }
}
