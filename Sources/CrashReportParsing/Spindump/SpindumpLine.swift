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

    /// `Duration:         7.23s` → (`Duration`, `7.23s`); nil for a line that is not a field.
    static func field(_ line: Substring) -> (key: String, value: String)? {
        guard let first = line.utf8.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t"),
            let colon = line.utf8.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        let key = line[..<colon]
        guard !key.isEmpty, key.utf8.count <= maxKeyBytes,
            key.utf8.allSatisfy({ isKeyByte($0) })
        else { return nil }
        let value = line[line.utf8.index(after: colon)...].trimmingSpaces()
        return (String(key), value)
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "/"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// `  49  start + 462 (dyld + 21806) [0x115b4652e] 1-49`, ` *1   hndl_alltraps + 223 (kernel + 39327) [0x…]`,
    /// `16  start_wqthread + 15 (libsystem_pthread.dylib)`, `49  <patched truncated backtrace> 1-49`.
    static func frame(_ line: Substring) -> Frame? {
        let bytes = line.utf8
        var cursor = bytes.startIndex
        var indent = 0
        var isKernel = false
        while cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "*") {
            if bytes[cursor] == UInt8(ascii: "*") { isKernel = true }
            indent += 1
            cursor = bytes.index(after: cursor)
        }
        let countStart = cursor
        while cursor < bytes.endIndex, isDigit(bytes[cursor]) { cursor = bytes.index(after: cursor) }
        guard cursor > countStart, cursor < bytes.endIndex, bytes[cursor] == UInt8(ascii: " "),
            bytes.distance(from: countStart, to: cursor) <= 18,
            let count = Int(line[countStart..<cursor])
        else { return nil }
        var rest = line[cursor...].drop { $0 == " " }
        guard !rest.isEmpty else { return nil }
        var frame = Frame(count: count, indent: indent, isKernel: isKernel, isPlaceholder: false)
        if rest.hasPrefix("<") {
            guard let close = rest.utf8.firstIndex(of: UInt8(ascii: ">")) else { return nil }
            frame.isPlaceholder = true
            frame.symbol = String(rest[...close])
            return frame
        }
        // The address, then the sample range after it (call trees only).
        if let open = rest.utf8.lastIndex(of: UInt8(ascii: "[")),
            let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: "]"))
        {
            let hex = rest[rest.utf8.index(after: open)..<close]
            if hex.hasPrefix("0x") { frame.address = UInt64(hex.dropFirst(2), radix: 16) }
            rest = rest[..<open]
        } else if let last = rest.utf8.lastIndex(of: UInt8(ascii: ")")) {
            rest = rest[...last]
        }
        while rest.utf8.last == UInt8(ascii: " ") { rest = rest.dropLast() }
        guard rest.utf8.last == UInt8(ascii: ")"), let open = matchingOpen(rest) else { return nil }
        readLocation(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)], into: &frame)
        guard frame.image != nil else { return nil }
        var symbol = rest[..<open]
        while symbol.last == " " { symbol = symbol.dropLast() }
        if let plus = symbol.byteRangeLast(of: " + "), let offset = UInt64(symbol[plus.upperBound...]) {
            frame.symbolOffset = offset
            symbol = symbol[..<plus.lowerBound]
        }
        if !symbol.isEmpty, symbol != "???" { frame.symbol = String(symbol) }
        return frame
    }

    /// The `(` that opens the parenthesis `text` ends with: a symbol may hold parentheses of its own.
    private static func matchingOpen(_ text: Substring) -> Substring.Index? {
        // On the bytes: stepping back over `Character`s costs a grapheme break test each.
        let bytes = text.utf8
        var depth = 0
        var index = bytes.endIndex
        while index > bytes.startIndex {
            index = bytes.index(before: index)
            switch bytes[index] {
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
    private static func readLocation(_ inside: Substring, into frame: inout Frame) {
        var imagePart = inside
        if let inWord = inside.byteRangeLast(of: " in ") {
            imagePart = inside[inWord.upperBound...]
            var place = inside[..<inWord.lowerBound]
            if let comma = place.utf8.lastIndex(of: UInt8(ascii: ",")),
                let column = Int(place[place.index(after: comma)...])
            {
                frame.column = column
                place = place[..<comma]
            }
            if let colon = place.utf8.lastIndex(of: UInt8(ascii: ":")),
                let line = Int(place[place.index(after: colon)...])
            {
                frame.line = line
                place = place[..<colon]
            }
            if !place.isEmpty { frame.file = String(place) }
        }
        if let plus = imagePart.byteRangeLast(of: " + ") {
            let offsetText = imagePart[plus.upperBound...]
            frame.imageOffset =
                offsetText.hasPrefix("0x") ? UInt64(offsetText.dropFirst(2), radix: 16) : UInt64(offsetText)
            if frame.imageOffset != nil { imagePart = imagePart[..<plus.lowerBound] }
        }
        let image = imagePart.trimmingSpaces()
        if !image.isEmpty { frame.image = image }
    }

    /// `Thread 0x2ca9e    DispatchQueue "com.apple.main-thread"(1)    49 samples (1-49)    priority 47 (base 47)`.
    static func threadHeading(_ line: Substring) -> ThreadHeading? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix("Thread 0x") else { return nil }
        var heading = ThreadHeading()
        let idText = trimmed.dropFirst("Thread 0x".count).prefix { $0.isHexDigit }
        heading.id = UInt64(idText, radix: 16)
        heading.queue = quoted(after: "DispatchQueue \"", in: trimmed)
        heading.name = quoted(after: "Thread name \"", in: trimmed)
        return heading
    }

    private static func quoted(after opening: String, in text: Substring) -> String? {
        guard let start = text.byteRange(of: opening) else { return nil }
        let rest = text[start.upperBound...]
        guard let close = rest.utf8.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        let value = rest[..<close]
        return value.isEmpty ? nil : String(value)
    }

    /// `0x7ff80479b000 -     0x7ff804c9dfff  com.apple.CoreFoundation 6.9 (1866)  <FDD28505-…>  /System/…`.
    static func image(_ line: Substring) -> Image? {
        var text = line.drop { $0 == " " || $0 == "\t" }
        var isKernel = false
        if text.hasPrefix("*") {
            isKernel = true
            text = text.dropFirst()
        }
        guard text.hasPrefix("0x"), let dash = text.byteRange(of: " - ") else { return nil }
        guard let base = UInt64(text[text.index(text.startIndex, offsetBy: 2)..<dash.lowerBound], radix: 16) else {
            return nil
        }
        var rest = text[dash.upperBound...].drop { $0 == " " }
        let endText = rest.prefix { $0 != " " }
        let end = endText.hasPrefix("0x") ? UInt64(endText.dropFirst(2), radix: 16) : nil
        rest = rest.dropFirst(endText.count).drop { $0 == " " }
        var uuid: String?
        var path: String?
        var described = rest
        if let open = rest.utf8.lastIndex(of: UInt8(ascii: "<")),
            let close = rest.utf8[open...].firstIndex(of: UInt8(ascii: ">"))
        {
            uuid = KSCrashMapping.normalizedUUID(String(rest[rest.utf8.index(after: open)..<close]))
            let after = rest[rest.utf8.index(after: close)...].trimmingSpaces()
            path = after.isEmpty ? nil : after
            described = rest[..<open]
        }
        let words = described.split(separator: " ", maxSplits: 1)
        guard let first = words.first else { return nil }
        var version = words.count > 1 ? words[1].trimmingSpaces() : ""
        // `dyld (1165.3)`: a version alone in parentheses is the version.
        if version.hasPrefix("("), version.hasSuffix(")"), version.utf8.count > 2,
            !version.dropFirst().contains("(")
        {
            version = String(version.dropFirst().dropLast())
        }
        return Image(
            base: base,
            end: end,
            identifier: String(first),
            version: version.isEmpty ? nil : version,
            uuid: uuid,
            path: path,
            isKernel: isKernel
        )
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
