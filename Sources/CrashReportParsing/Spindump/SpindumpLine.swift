import APMInspectCore

/// The line shapes of spindump text (macOS `.hang` and `.spin` reports, and the bodies of `.ips` hang reports).
///
/// Each reader takes one line and answers nil for any other shape, so a hostile line is only ever skipped.
enum SpindumpLine {
    /// One frame of a call tree or of the heaviest stack.
    struct Frame: Equatable {
        /// Samples that had this frame.
        var count: Int
        /// The column the count starts at: a frame's depth in a call tree.
        var indent: Int
        /// `*`: a frame in the kernel's address space, not the process's.
        var isKernel: Bool
        /// A placeholder such as `<patched truncated backtrace>`: a node of the tree, not a frame of code.
        var isPlaceholder: Bool
        var symbol: String?
        var symbolOffset: UInt64?
        var image: String?
        var imageOffset: UInt64?
        var file: String?
        var line: Int?
        var column: Int?
        var address: UInt64?
    }

    /// One image of a process's `Binary Images:` list.
    struct Image: Equatable {
        var base: UInt64
        var end: UInt64?
        /// The reverse-DNS identifier or the name the list gives first.
        var identifier: String
        var version: String?
        var uuid: String?
        var path: String?
        var isKernel: Bool
    }

    /// One thread's heading: `Thread 0x2ca9e    DispatchQueue "com.apple.main-thread"(1)    49 samples (1-49) …`.
    struct ThreadHeading: Equatable {
        var id: UInt64?
        var queue: String?
        var name: String?
    }

    /// Longest key of a `Key: value` line; longer text before a colon is prose, not a field.
    static let maxKeyBytes = 40

    // The readers work on the line's bytes and copy out only what they keep: on `Substring`s and `Character`s a
    // spindump cost about 28,000 instructions a line, a fifth of a scan of crash and watchdog reports.

    /// `Duration:         7.23s` → (`Duration`, `7.23s`); nil for a line that is not a field.
    static func field(_ line: TextBytes) -> (key: String, value: String)? {
        guard let first = line.first, !TextBytes.isBlank(first), let colon = line.firstIndex(of: 0x3A),
            colon > 0, colon <= maxKeyBytes
        else { return nil }
        let key = line.prefix(colon)
        guard key.allSatisfy({ isKeyByte($0) }) else { return nil }
        return (key.string, line.suffix(from: colon + 1).trimmedString)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "/"), 0x28, 0x29,
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// `  49  start + 462 (dyld + 21806) [0x115b4652e] 1-49`, ` *1   hndl_alltraps + 223 (kernel + 39327) [0x…]`,
    /// `16  start_wqthread + 15 (libsystem_pthread.dylib)`, `49  <patched truncated backtrace> 1-49`.
    static func frame(_ line: TextBytes) -> Frame? {
        var cursor = 0
        var indent = 0
        var isKernel = false
        while cursor < line.count, line[cursor] == 0x20 || line[cursor] == 0x2A {
            if line[cursor] == 0x2A { isKernel = true }
            indent += 1
            cursor += 1
        }
        let countStart = cursor
        while cursor < line.count, TextBytes.isDigit(line[cursor]) { cursor += 1 }
        guard cursor > countStart, cursor < line.count, line[cursor] == 0x20, cursor - countStart <= 18,
            let count = line.slice(countStart, cursor).int
        else { return nil }
        var rest = droppingSpaces(line.suffix(from: cursor))
        guard !rest.isEmpty else { return nil }
        var frame = Frame(count: count, indent: indent, isKernel: isKernel, isPlaceholder: false)
        if rest.first == 0x3C {  // `<`
            guard let close = rest.firstIndex(of: 0x3E) else { return nil }
            frame.isPlaceholder = true
            frame.symbol = rest.prefix(close + 1).string
            return frame
        }
        // The address, then the sample range after it (call trees only).
        if let open = rest.lastIndex(of: 0x5B), let close = rest.firstIndex(of: 0x5D, from: open) {
            let hex = rest.slice(open + 1, close)
            if hex.startsWith0x { frame.address = hex.dropFirst(2).unsigned(radix: 16) }
            rest = rest.prefix(open)
        } else if let last = rest.lastIndex(of: 0x29) {
            rest = rest.prefix(last + 1)
        }
        while rest.last == 0x20 { rest = rest.dropLast() }
        guard rest.last == 0x29, let open = matchingOpen(rest) else { return nil }
        readLocation(rest.slice(open + 1, rest.count - 1), into: &frame)
        guard frame.image != nil else { return nil }
        var symbol = rest.prefix(open)
        while symbol.last == 0x20 { symbol = symbol.dropLast() }
        if let plus = symbol.lastRange(of: " + "), let offset = symbol.suffix(from: plus.upperBound).unsigned() {
            frame.symbolOffset = offset
            symbol = symbol.prefix(plus.lowerBound)
        }
        if !symbol.isEmpty, !symbol.equals("???") { frame.symbol = symbol.string }
        return frame
    }

    /// The `(` that opens the parenthesis `text` ends with: a symbol may hold parentheses of its own.
    private static func matchingOpen(_ text: TextBytes) -> Int? {
        var depth = 0
        var index = text.count
        while index > 0 {
            index -= 1
            switch text[index] {
            case 0x29: depth += 1  // `)`
            case 0x28:  // `(`
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// `dyld + 21806`, `RedLemonApp.swift:31,1 in RedLemon + 17460019`, `libsystem_pthread.dylib`.
    private static func readLocation(_ inside: TextBytes, into frame: inout Frame) {
        var imagePart = inside
        if let inWord = inside.lastRange(of: " in ") {
            imagePart = inside.suffix(from: inWord.upperBound)
            var place = inside.prefix(inWord.lowerBound)
            if let comma = place.lastIndex(of: 0x2C), let column = place.suffix(from: comma + 1).int {
                frame.column = column
                place = place.prefix(comma)
            }
            if let colon = place.lastIndex(of: 0x3A), let line = place.suffix(from: colon + 1).int {
                frame.line = line
                place = place.prefix(colon)
            }
            if !place.isEmpty { frame.file = place.string }
        }
        if let plus = imagePart.lastRange(of: " + ") {
            let offsetText = imagePart.suffix(from: plus.upperBound)
            frame.imageOffset =
                offsetText.startsWith0x ? offsetText.dropFirst(2).unsigned(radix: 16) : offsetText.unsigned()
            if frame.imageOffset != nil { imagePart = imagePart.prefix(plus.lowerBound) }
        }
        let image = imagePart.trimmed()
        if !image.isEmpty { frame.image = image.string }
    }

    /// `Thread 0x2ca9e    DispatchQueue "com.apple.main-thread"(1)    49 samples (1-49)    priority 47 (base 47)`.
    static func threadHeading(_ line: TextBytes) -> ThreadHeading? {
        let trimmed = line.droppingLeadingBlanks()
        guard trimmed.hasPrefix("Thread 0x") else { return nil }
        var heading = ThreadHeading()
        let digits = trimmed.suffix(from: 9)
        var end = 0
        while end < digits.count, TextBytes.isHexDigit(digits[end]) { end += 1 }
        heading.id = digits.prefix(end).unsigned(radix: 16)
        heading.queue = quoted(after: "DispatchQueue \"", in: trimmed)
        heading.name = quoted(after: "Thread name \"", in: trimmed)
        return heading
    }

    private static func quoted(after opening: StaticString, in text: TextBytes) -> String? {
        guard let start = text.range(of: opening) else { return nil }
        let rest = text.suffix(from: start.upperBound)
        guard let close = rest.firstIndex(of: 0x22) else { return nil }
        return close == 0 ? nil : rest.prefix(close).string
    }

    /// `0x7ff80479b000 -     0x7ff804c9dfff  com.apple.CoreFoundation 6.9 (1866)  <FDD28505-…>  /System/…`.
    static func image(_ line: TextBytes) -> Image? {
        var text = line.droppingLeadingBlanks()
        var isKernel = false
        if text.first == 0x2A {  // `*`
            isKernel = true
            text = text.dropFirst()
        }
        guard text.startsWith0x, let dash = text.range(of: " - "),
            let base = text.slice(2, dash.lowerBound).unsigned(radix: 16)
        else { return nil }
        var rest = droppingSpaces(text.suffix(from: dash.upperBound))
        let endLength = rest.firstIndex(of: 0x20) ?? rest.count
        let endText = rest.prefix(endLength)
        let end = endText.startsWith0x ? endText.dropFirst(2).unsigned(radix: 16) : nil
        rest = droppingSpaces(rest.suffix(from: endLength))
        var uuid: String?
        var path: String?
        var described = rest
        if let open = rest.lastIndex(of: 0x3C), let close = rest.firstIndex(of: 0x3E, from: open) {
            uuid = KSCrashMapping.normalizedUUID(rest.slice(open + 1, close).string)
            let after = rest.suffix(from: close + 1).trimmed()
            path = after.isEmpty ? nil : after.string
            described = rest.prefix(open)
        }
        // The identifier, then the version: everything after the first space.
        guard !described.isEmpty else { return nil }
        let space = described.firstIndex(of: 0x20)
        let identifier = space.map { described.prefix($0) } ?? described
        var version = space.map { described.suffix(from: $0 + 1).trimmed() } ?? described.suffix(from: described.count)
        // `dyld (1165.3)`: a version alone in parentheses is the version.
        if version.first == 0x28, version.last == 0x29, version.count > 2,
            version.dropFirst().firstIndex(of: 0x28) == nil
        {
            version = version.slice(1, version.count - 1)
        }
        return Image(
            base: base,
            end: end,
            identifier: identifier.string,
            version: version.isEmpty ? nil : version.string,
            uuid: uuid,
            path: path,
            isKernel: isKernel
        )
    }

    /// Without the spaces (not tabs) the line starts with.
    static func droppingSpaces(_ text: TextBytes) -> TextBytes {
        var start = 0
        while start < text.count, text[start] == 0x20 { start += 1 }
        return text.suffix(from: start)
    }
}
