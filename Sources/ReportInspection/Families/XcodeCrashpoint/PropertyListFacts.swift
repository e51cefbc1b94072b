import APMInspectCore

/// The scalar facts of a small metadata file: an XML property list or a JSON object, its top level and the
/// dictionaries right under it (`filter.osVersion`); arrays and deeper levels are not read.
///
/// Bounded as any input: a file of at most ``maxBytes``, at most ``maxFacts`` facts of at most ``maxValueLength``
/// characters, no recursion. A binary property list is recognised and not read (this build has no reader for it).
enum PropertyListFacts {
    static let maxBytes = 65_536
    static let maxFacts = 64
    static let maxValueLength = 512

    struct Read {
        var format: String
        var facts: [XcodeCrashpointInfo.Fact] = []
        var leftOut = 0
    }

    /// The format a metadata file's bytes are in, or nil when they are none of the three.
    static func format(of bytes: [UInt8]) -> String? {
        if bytes.starts(with: Array("bplist".utf8)) { return "binaryPlist" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self)
        if head.contains("<plist") || head.contains("<!DOCTYPE plist") { return "xmlPlist" }
        if ContentSniffer.format(of: bytes) == .json { return "json" }
        return nil
    }

    static func read(_ bytes: [UInt8], file: String) -> Read {
        guard bytes.count <= maxBytes, let format = format(of: bytes) else { return Read(format: "unknown") }
        var read = Read(format: format)
        func add(_ key: String, _ value: String) {
            guard read.facts.count < maxFacts else {
                read.leftOut += 1
                return
            }
            let kept = value.count > maxValueLength ? String(value.prefix(maxValueLength)) + "…" : value
            read.facts.append(XcodeCrashpointInfo.Fact(file: file, key: key, value: kept))
        }
        switch format {
        case "xmlPlist": readXML(String(decoding: bytes, as: UTF8.self), add: add)
        case "json": readJSON(bytes, add: add)
        default: break
        }
        return read
    }

    /// Walks the tags of an XML property list with a depth counter: `<key>` then a scalar at dictionary depth 1 or 2.
    private static func readXML(_ text: String, add: (String, String) -> Void) {
        var depth = 0
        var keys: [String?] = []
        var pendingKey: String?
        var cursor = text.startIndex
        while let open = text[cursor...].firstIndex(of: "<") {
            guard let close = text[open...].firstIndex(of: ">") else { return }
            let tag = text[text.index(after: open)..<close]
            cursor = text.index(after: close)
            if tag.hasPrefix("?") || tag.hasPrefix("!") || tag == "plist" || tag.hasPrefix("plist ") || tag == "/plist"
            {
                continue
            }
            switch tag {
            case "dict", "array":
                if tag == "dict" {
                    keys.append(pendingKey)
                    depth += 1
                } else {
                    keys.append(nil)
                    depth += 100  // arrays and what is inside them are not read
                }
                pendingKey = nil
            case "/dict", "/array":
                depth -= tag == "/dict" ? 1 : 100
                _ = keys.popLast()
                if depth < 0 { return }
            case "true/", "false/":
                if let key = pendingKey, depth <= 2 { add(path(keys, key), tag == "true/" ? "true" : "false") }
                pendingKey = nil
            case "dict/", "array/", "string/", "data/":
                pendingKey = nil
            case "key", "string", "integer", "real", "date", "data":
                guard let end = text[cursor...].range(of: "</\(tag)>") else { return }
                let value = unescaped(text[cursor..<end.lowerBound])
                cursor = end.upperBound
                if tag == "key" {
                    pendingKey = value
                } else {
                    if let key = pendingKey, depth <= 2, depth >= 1, tag != "data" { add(path(keys, key), value) }
                    pendingKey = nil
                }
            default:
                continue
            }
        }
    }

    private static func path(_ keys: [String?], _ key: String) -> String {
        (keys.compactMap { $0 } + [key]).joined(separator: ".")
    }

    /// The five predefined XML entities decoded; any other `&…;` is kept as written.
    private static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        let entities: [Substring: String] = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(6).firstIndex(of: ";"), let decoded = entities[after[..<semi]] {
                out += decoded
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func readJSON(_ bytes: [UInt8], add: (String, String) -> Void) {
        guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)),
            document.root.kind == .object
        else { return }
        document.root.forEachMember { key, value in
            if value.kind == .object {
                value.forEachMember { inner, innerValue in
                    if let text = scalar(innerValue) { add(key + "." + inner, text) }
                }
            } else if let text = scalar(value) {
                add(key, text)
            }
        }
    }

    private static func scalar(_ value: JSONElement) -> String? {
        switch value.kind {
        case .string: value.string
        case .number: value.rawText
        case .bool: value.bool.map { $0 ? "true" : "false" }
        default: nil
        }
    }
}
