import APMInspectCore
import ByteAccess

/// Accumulates the text of one translated report; the parts both layouts share live here.
struct AppleTextWriter {
    let report: CrashReport
    let extras: AppleTextExtras
    private(set) var output = ""

    init(report: CrashReport, extras: AppleTextExtras) {
        self.report = report
        self.extras = extras
    }

    // MARK: Lines

    /// Appends multi-line strings from the JSON that keep their own newlines; every other control is escaped.
    ///
    /// The JSON may leave off the last line's newline, which Apple's text always has.
    mutating func raw(_ text: String) {
        output += TerminalText.escapedKeepingLayout(text)
        if !text.hasSuffix("\n") { output += "\n" }
    }

    /// Appends a multi-line block under its title line, then `blankLines` empty lines: the spacing after a block
    /// differs between blocks and between the two layouts.
    mutating func titledBlock(_ title: String, _ text: String, blankLines: Int) {
        line(title)
        raw(text)
        for _ in 0..<blankLines { line() }
    }

    /// Appends one line: whatever a field holds (a symbol or process name with a line feed, an escape sequence),
    /// it is escaped, so no value from the report can forge a frame or a `Binary Images:` line of its own.
    mutating func line(_ text: String = "") {
        let kept = TerminalText.escapedKeepingLayout(text)
        output +=
            kept.utf8.contains(0x0A)
            ? kept.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") : kept
        output += "\n"
    }

    /// `Key:` padded to `width` columns, then the value; nothing when the value is nil.
    mutating func field(_ key: String, _ value: String?, width: Int) {
        guard let value else { return }
        line(Self.padRight(key + ":", width) + value)
    }

    /// `text` unless it is missing or blank: a blank name in a column would shift the columns after it, and the
    /// line would read back as something else (or not at all).
    static func column(_ text: String?) -> String? {
        guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
        return text
    }

    /// The name an image goes by in a frame line and in Binary Images: its name, else its file's name, else `???`.
    static func imageName(_ image: CrashReport.BinaryImage?) -> String {
        guard let image else { return "???" }
        if let name = column(image.name) { return name }
        let file = image.path.flatMap { $0.split(separator: "/").last.map(String.init) }
        return column(file) ?? "???"
    }

    static func padRight(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : text + String(repeating: " ", count: width - count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        let count = text.count
        return count >= width ? text : String(repeating: " ", count: width - count) + text
    }

    /// `0x` and `digits` zero-padded hex digits.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return "0x" + (text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text)
    }

    /// `0x` and unpadded hex digits.
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    // MARK: Header values

    /// `name [pid]`, `name`, or nil.
    static func named(_ name: String?, _ pid: Int64?) -> String? {
        guard let name else { return pid.map { "??? [\($0)]" } }
        return pid.map { "\(name) [\($0)]" } ?? name
    }

    var processValue: String? { Self.named(report.process, report.pid) }

    var codeTypeValue: String? {
        report.codeType.map { $0 + (report.isTranslated == true ? " (Translated)" : " (Native)") }
    }

    /// `short (build)`, the iOS 15+ and macOS 12+ order.
    var versionValue: String? {
        let short = report.appVersion.flatMap { $0.isEmpty ? nil : $0 }
        let build = report.appBuild.flatMap { $0.isEmpty ? nil : $0 }
        switch (short, build) {
        case (let short?, let build?): return "\(short) (\(build))"
        case (let short?, nil): return short
        case (nil, let build?): return "??? (\(build))"
        case (nil, nil): return nil
        }
    }

    /// `2022-08-04 01:11:01.2455 +0900`, as the JSON writes it.
    static func appleDate(_ time: AppleTimestamp) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        let fraction = time.fractionDigits.isEmpty ? "" : "." + time.fractionDigits
        let sign = time.utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = abs(time.utcOffsetSeconds)
        return "\(pad(time.year, 4))-\(pad(time.month, 2))-\(pad(time.day, 2)) "
            + "\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2))\(fraction) "
            + "\(sign)\(pad(magnitude / 3600, 2))\(pad(magnitude % 3600 / 60, 2))"
    }

    var exceptionTypeValue: String? {
        guard let exception = report.exception, exception.type != nil else { return nil }
        return exception.typeAndSignal
    }

    var exceptionNote: String? {
        guard let exception = report.exception else { return nil }
        if let note = exception.note { return note }
        if exception.isSimulated == true { return "SIMULATED (this is NOT a crash)" }
        if exception.isNonFatal == true { return "NON-FATAL CONDITION (this is NOT a crash)" }
        if exception.isCorpse == true { return "EXC_CORPSE_NOTIFY" }
        return nil
    }

    var terminatingProcess: String? {
        guard let termination = report.termination, termination.byProcess != nil || termination.byPid != nil else {
            return nil
        }
        return Self.named(termination.byProcess, termination.byPid)
    }

    /// A string member of the JSON keys the model keeps verbatim.
    func extra(_ key: String) -> String? {
        switch report.unknownKeys?[key] {
        case .string(let text): return text
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: return nil
        }
    }

    var crashedIndex: Int? { report.crashedThread ?? report.threads.first { $0.crashed }?.index }

    // MARK: Frames

    /// `0   libswiftCore.dylib            \t       0x1ad98ab74 _assertionFailure(…) + 308`.
    func frameLine(_ frame: CrashReport.Frame, imageIndex: Int?) -> String {
        let image = Self.column(frame.image) ?? Self.imageName(imageFor(frame, imageIndex: imageIndex))
        let address = frame.address.map { Self.hex($0.value) } ?? "???"
        var text = Self.padRight(String(frame.index), 4) + Self.padRight(image, 30) + "\t" + Self.padLeft(address, 18)
        if let symbol = frame.symbol {
            text += " " + symbol
            // A symbol that reads as a load address (`0x10`, `0`) followed by an offset would read back as an
            // unsymbolicated frame and lose the symbol: the layout has no way to tell them apart, so the offset goes.
            if let offset = frame.symbolOffset, !Self.readsAsImageBase(symbol) { text += " + \(offset)" }
        } else if frame.address != nil, let image = imageFor(frame, imageIndex: imageIndex), image.source != "A" {
            // With `???` in the address column a `base + offset` would read back as the frame's address.
            let base = image.base.value
            let offset = frame.imageOffset ?? frame.address.map { $0.value &- base } ?? 0
            text += " \(Self.hex(base)) + \(offset)"
        } else {
            text += " ???"
        }
        if let file = frame.file {
            // Apple prints the file's last path component and 0 for an unknown line: `(<compiler-generated>:0)`.
            let name = file.split(separator: "/").last.map(String.init) ?? file
            text += " (\(name):\(frame.line ?? 0))"
        }
        // An inlined function's frame (`"inline": true`, or a chain symbolication found) is marked as Xcode's
        // symbolicated reports mark it, so it does not read as a call of its own.
        if frame.inlined == true { text += " [inlined]" }
        return text
    }

    static func readsAsImageBase(_ symbol: String) -> Bool {
        var symbol = symbol
        return symbol.withBorrowedUTF8 { CrashTextReader.isImageBase(TextBytes($0).trimmed()) }
    }

    /// The frame's image: by JSON `imageIndex`, else the image whose range holds the address, else by name.
    func imageFor(_ frame: CrashReport.Frame, imageIndex: Int?) -> CrashReport.BinaryImage? {
        let images = report.binaryImages
        if let imageIndex, images.indices.contains(imageIndex) { return images[imageIndex] }
        if let address = frame.address?.value,
            let image = images.first(where: { image in
                guard let end = image.end?.value, image.source != "A" else { return false }
                return image.base.value <= address && address <= end
            })
        {
            return image
        }
        guard let name = frame.image else { return nil }
        return images.first { $0.name == name }
    }

    mutating func writeFrames(_ frames: [CrashReport.Frame], images: [Int?]) {
        for (position, frame) in frames.enumerated() {
            line(frameLine(frame, imageIndex: images.indices.contains(position) ? images[position] : nil))
        }
    }

    func frameImages(ofThread position: Int) -> [Int?] {
        extras.frameImages.indices.contains(position) ? extras.frameImages[position] : []
    }

    // MARK: Thread state

    /// The heading name of a thread state flavour: `ARM Thread State (64-bit)` for `ARM_THREAD_STATE64`.
    static func stateName(_ flavor: String?) -> String {
        switch flavor {
        case "ARM_THREAD_STATE64": return "ARM Thread State (64-bit)"
        case "ARM_THREAD_STATE", "ARM_THREAD_STATE32": return "ARM Thread State (32-bit)"
        case "x86_THREAD_STATE", "x86_THREAD_STATE64": return "X86 Thread State (64-bit)"
        case "x86_THREAD_STATE32": return "X86 Thread State (32-bit)"
        default: return flavor ?? "Thread State"
        }
    }

    /// Register rows as Apple lays them out; the names that are 32-bit values; the row prefix.
    static func registerLayout(_ flavor: String?) -> (rows: [[String]], narrow: Set<String>, prefix: String) {
        if flavor?.hasPrefix("x86") == true {
            return (
                [
                    ["rax", "rbx", "rcx", "rdx"], ["rdi", "rsi", "rbp", "rsp"], ["r8", "r9", "r10", "r11"],
                    ["r12", "r13", "r14", "r15"], ["rip", "rflags", "cr2"],
                ], [], ""
            )
        }
        var rows: [[String]] = stride(from: 0, to: 28, by: 4).map { start in (start..<start + 4).map { "x\($0)" } }
        rows += [["x28", "fp", "lr"], ["sp", "pc", "cpsr"], ["far", "esr"]]
        return (rows, ["cpsr", "esr"], " ")
    }

    /// `Thread 0 crashed with ARM Thread State (64-bit):` and the registers.
    mutating func writeThreadState(_ thread: CrashReport.Thread) {
        guard let registers = thread.registers, !registers.isEmpty else { return }
        line("Thread \(thread.index) crashed with \(Self.stateName(thread.registerFlavor)):")
        let layout = Self.registerLayout(thread.registerFlavor)
        var byName: [String: CrashReport.Register] = [:]
        for register in registers where byName[register.name] == nil { byName[register.name] = register }
        var shown: Set<String> = ["cpu", "err", "trap"]
        let isX86 = thread.registerFlavor?.hasPrefix("x86") == true
        for row in layout.rows {
            var text = ""
            for name in row {
                guard let register = byName[name] else {
                    // A translated thread's state may lack `rip`: Apple writes it as unavailable, in its column.
                    if isX86, name == "rip", thread.rosettaRegisters != nil, row.contains(where: { byName[$0] != nil })
                    {
                        text += Self.padLeft(name, 5) + ": " + "<unavailable>" + String(repeating: " ", count: 5)
                    }
                    continue
                }
                shown.insert(name)
                let label = name == "rflags" ? "rfl" : name
                let value =
                    layout.narrow.contains(name)
                    ? Self.hex(register.value.value & 0xffff_ffff, digits: 8)
                    : Self.hex(register.value.value, digits: 16)
                text += Self.padLeft(label, 5) + ": " + value
                if name == "esr", let description = register.description { text += " " + description }
            }
            if !text.isEmpty { line(layout.prefix + text) }
        }
        let others = registers.filter { !shown.contains($0.name) }
        for register in others {
            line(layout.prefix + Self.padLeft(register.name, 5) + ": " + Self.hex(register.value.value, digits: 16))
        }
        writeRosettaRegisters(thread.rosettaRegisters ?? [], prefix: layout.prefix)
        if layout.prefix.isEmpty {
            line("  ")
            if let cpu = byName["cpu"] { line("Logical CPU:     \(cpu.value.value)") }
            if let err = byName["err"] {
                // The JSON keeps the fault's description on `trap` (or `err`); Apple prints it after the code.
                let description = err.description ?? byName["trap"]?.description
                line("Error Code:      \(Self.hex(err.value.value & 0xffff_ffff, digits: 8)) \(description ?? "")")
            }
            if let trap = byName["trap"] { line("Trap Number:     \(trap.value.value)") }
        }
        line()
    }

    /// The registers of a thread's `rosetta` object, as Apple ends the X86 state of a translated thread:
    /// ` tmp0: 0x… tmp1: 0x… tmp2: 0x…`, `tmp0`, `tmp1` … first in their number's order, any other after them as
    /// written, four to a row.
    mutating func writeRosettaRegisters(_ registers: [CrashReport.Register], prefix: String) {
        guard !registers.isEmpty else { return }
        func temporary(_ name: String) -> Int? {
            guard name.hasPrefix("tmp") else { return nil }
            return Int(name.dropFirst(3))
        }
        let numbered = registers.enumerated().compactMap { k, register in
            temporary(register.name).map { (number: $0, position: k) }
        }
        let order =
            numbered.sorted { ($0.number, $0.position) < ($1.number, $1.position) }.map(\.position)
            + registers.indices.filter { temporary(registers[$0].name) == nil }
        var start = 0
        while start < order.count {
            let row = order[start..<min(start + 4, order.count)]
            line(
                prefix
                    + row.map {
                        Self.padLeft(registers[$0].name, 5) + ": " + Self.hex(registers[$0].value.value, digits: 16)
                    }.joined()
            )
            start += 4
        }
    }

    /// `Thread 0 instruction stream:` with the PC byte in brackets.
    mutating func writeInstructionStream(threadIndex: Int, position: Int) {
        guard let stream = extras.instructionStreams[position], !stream.bytes.isEmpty else { return }
        line("Thread \(threadIndex) instruction stream:")
        var start = 0
        while start < stream.bytes.count {
            let chunk = stream.bytes[start..<min(start + 16, stream.bytes.count)]
            var text = " "
            var ascii = ""
            var closePending = false
            for (k, byte) in chunk.enumerated() {
                let isPC = start + k == stream.offset
                let separator = isPC ? "[" : (closePending ? "]" : (k == 8 ? "-" : " "))
                closePending = isPC
                text += separator + Self.hexByte(byte)
                ascii += byte >= 0x20 && byte < 0x7f ? String(UnicodeScalar(byte)) : "."
            }
            text += String(repeating: "   ", count: 16 - chunk.count)
            text += (closePending ? "] " : "  ") + ascii
            if stream.offset >= start && stream.offset < start + 16 { text += "\t<==" }
            line(text)
            start += 16
        }
        line()
    }

    static func hexByte(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16)
        return text.count == 1 ? "0" + text : text
    }

    // MARK: Binary images

    /// Images Apple lists: all but the absolute (`A`) pseudo-image, unless it is the placeholder (base 0, size 0)
    /// that stands for frames outside every image, which Apple lists as ``isPlaceholder(_:)`` describes.
    var listedImages: [CrashReport.BinaryImage] {
        report.binaryImages.filter { $0.source != "A" || Self.isPlaceholder($0) }
    }

    /// The absolute pseudo-image at base 0 with size 0: Apple prints it as
    /// `0x0 - 0xffffffffffffffff ??? (*) <00000000-0000-0000-0000-000000000000> ???`.
    static func isPlaceholder(_ image: CrashReport.BinaryImage) -> Bool {
        image.source == "A" && image.base.value == 0 && (image.end?.value ?? 0) == 0
    }

    /// `<base> - <end>`, each right-aligned in 18 columns.
    static func imageRange(_ image: CrashReport.BinaryImage) -> String {
        let end = isPlaceholder(image) ? UInt64.max : image.end?.value ?? image.base.value
        return padLeft(hex(image.base.value), 18) + " - " + padLeft(hex(end), 18)
    }

    /// The UUID as 8-4-4-4-12 lower-case groups.
    static func dashedUUID(_ uuid: String) -> String {
        let hex = Array(uuid.lowercased().filter { $0 != "-" })
        guard hex.count == 32 else { return uuid }
        let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }
        return groups.joined(separator: "-")
    }
}
