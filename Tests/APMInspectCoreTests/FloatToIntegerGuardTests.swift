import Foundation
import Testing

/// Keeps the class closed: floats become integers in `Sources/` only through `init(saturating:)`/`init(exactly:)`.
///
/// `Int(someDouble)` traps on NaN, infinity and anything out of range,
/// and a single report saying `9223372036854775807s` killed a whole scan that way.
///
/// Without type information the scan is a careful heuristic: a conversion `Int(…)`, `UInt64(…)` … is flagged
/// when its argument is visibly floating (`.rounded`, `Double(…)`, a decimal literal, `floor(…)`), names a
/// variable or parameter the same file declares as `Double`/`Float`, or reads a property that every
/// declaration in `Sources/` types as `Double`/`Float`.
@Suite struct FloatToIntegerGuardTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func sourcesConvertFloatsOnlyThroughTheClampingHelper() throws {
        let files = try Self.swiftFiles(under: Self.root.appendingPathComponent("Sources"))
        #expect(files.count > 50, "Sources/ was not found from \(#filePath)")
        let texts = try files.map { ($0, try String(contentsOf: $0, encoding: .utf8)) }
        let members = ConversionScanner.floatingMembers(in: texts.map(\.1))
        var found: [String] = []
        for (url, text) in texts {
            let relative = url.path.replacingOccurrences(of: Self.root.path + "/", with: "")
            found += ConversionScanner.unguardedConversions(in: text, floatingMembers: members).map {
                "\(relative):\($0.line): \($0.text)"
            }
        }
        #expect(found.isEmpty, "use Int(saturating:) or Int(exactly:):\n\(found.joined(separator: "\n"))")
    }

    @Test func theScanFindsEachShapeOfUnguardedConversion() {
        let source = """
            struct Plot {
                var width: Double = 600
                func a(_ seconds: Double) -> Int { Int(seconds) }
                func b(x: Float) -> Int64 { let scaled = x * 10.0
                    return Int64(scaled) }
                func c() -> Int { Int(width) }
                func d(t: Timing) -> UInt64 { UInt64((t.total * 1000).rounded()) }
                func e(t: Timing) -> Int { Int(t.elapsedSeconds) }
                func f(n: Int) -> Int { Int(Double(n) / 3) }
            }
            """
        let lines = ConversionScanner.unguardedConversions(in: source, floatingMembers: ["elapsedSeconds"]).map(\.line)
        #expect(lines == [3, 5, 6, 7, 8, 9])
    }

    @Test func guardedAndIntegerConversionsPass() {
        let source = """
            func a(_ seconds: Double) -> Int { Int(saturating: seconds) }
            func b(_ seconds: Double) -> Int? { Int(exactly: seconds.rounded()) }
            func c(_ byte: UInt8, count: Int) -> Int { Int(byte) << 8 | Int(count) }
            func d(_ text: Substring) -> Int? { Int(text) }
            func e(_ value: UInt64) -> Int { Int(truncatingIfNeeded: value) + Int(clamping: value) }
            /// `Int(someDouble)` in a comment is not code.
            func f(r: Response) -> Int64 { Int64(r.end - r.start) }
            """
        #expect(ConversionScanner.unguardedConversions(in: source, floatingMembers: ["seconds"]).isEmpty)
    }

    private static func swiftFiles(under folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        // The device catalog's generated table has no conversions and is most of the bytes.
        return walker.compactMap { $0 as? URL }.filter {
            $0.pathExtension == "swift" && !$0.lastPathComponent.contains("Generated")
        }.sorted { $0.path < $1.path }
    }
}

/// The heuristic of ``FloatToIntegerGuardTests``.
enum ConversionScanner {
    struct Finding {
        var line: Int
        var text: String
    }

    private static let integerTypes = "(?:Int|Int8|Int16|Int32|Int64|UInt|UInt8|UInt16|UInt32|UInt64)"
    private static let floatingTypes = "(?:Double|Float|Float32|Float64|CGFloat|TimeInterval)"

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern)
    }

    /// A conversion call: the type name not preceded by a dot or identifier character.
    private static let call = regex("(?<![\\w.])" + integerTypes + "\\(")
    /// Labels of conversions that cannot trap (or take integers only).
    private static let safeLabel = regex(
        "^\\s*(?:exactly|saturating|clamping|truncatingIfNeeded|bitPattern|littleEndian|bigEndian)\\s*:"
    )
    /// Visibly floating arguments.
    private static let floatingHint = regex(
        "\\.rounded\\b|\\b(?:floor|ceil|sqrt|log|log2|log10|pow|exp|round|trunc)\\(|\\b" + floatingTypes
            + "\\b|\\b\\d+\\.\\d+|\\b\\d+e\\d+|\\.pi\\b"
    )
    /// `let x: Double`, `var x: Float?`, a parameter `x: Double,` or `x: Double)`.
    private static let typedDeclaration = regex(
        "\\b(?:let|var)\\s+(\\w+)\\s*:\\s*" + floatingTypes + "\\b|\\b(\\w+)\\s*:\\s*" + floatingTypes
            + "\\??\\s*[,)=]"
    )
    /// `let x = …` on one line, floating when its right side is.
    private static let inferredDeclaration = regex("\\b(?:let|var)\\s+(\\w+)\\s*=\\s*([^\\n]*)")
    private static let anyDeclaration = regex("\\b(?:let|var)\\s+(\\w+)\\s*:\\s*(\\w+)")
    private static let freeIdentifier = regex("(?<![.\\w])[A-Za-z_]\\w*")
    private static let memberName = regex("\\.([A-Za-z_]\\w*)")
    private static let integerConversion = regex(integerTypes + "\\(")

    /// Properties every declaration in `sources` types as floating (a name also declared with another type
    /// somewhere is left out: the scan cannot tell which one a use reads).
    static func floatingMembers(in sources: [String]) -> Set<String> {
        var floating = Set<String>()
        var other = Set<String>()
        for source in sources {
            for groups in matches(anyDeclaration, in: source) where groups.count == 3 {
                if groups[2].range(of: "^" + floatingTypes + "$", options: .regularExpression) != nil {
                    floating.insert(groups[1])
                } else {
                    other.insert(groups[1])
                }
            }
        }
        return floating.subtracting(other)
    }

    static func unguardedConversions(in source: String, floatingMembers: Set<String>) -> [Finding] {
        var locals = Set<String>()
        for groups in matches(typedDeclaration, in: source) {
            if let name = groups.dropFirst().first(where: { !$0.isEmpty }) { locals.insert(name) }
        }
        for groups in matches(inferredDeclaration, in: source) where groups.count == 3 {
            if has(floatingHint, groups[2]) && !has(integerConversion, groups[2]) { locals.insert(groups[1]) }
        }
        let text = source as NSString
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        var findings: [Finding] = []
        guard let call else { return [Finding(line: 0, text: "the scanner's pattern does not compile")] }
        for match in call.matches(in: source, range: NSRange(location: 0, length: text.length)) {
            let argument = balancedArgument(in: text, from: match.range.location + match.range.length)
            if has(safeLabel, argument) { continue }
            let lineNumber = text.substring(to: match.range.location).reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            let line = lines.indices.contains(lineNumber - 1) ? lines[lineNumber - 1] : ""
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("//") { continue }
            // Subscripts index arrays with integers: what is inside them is not the converted value.
            let outer = argument.replacingOccurrences(of: "\\[[^\\]]*\\]", with: "", options: .regularExpression)
            let names = Set(matches(freeIdentifier, in: outer).compactMap(\.first))
            let members = Set(matches(memberName, in: outer).compactMap { $0.count > 1 ? $0[1] : nil })
            if has(floatingHint, argument) || !names.isDisjoint(with: locals)
                || !members.isDisjoint(with: floatingMembers)
            {
                findings.append(Finding(line: lineNumber, text: String(trimmed)))
            }
        }
        return findings
    }

    /// The text between the opening parenthesis (just before `start`) and its matching close.
    private static func balancedArgument(in text: NSString, from start: Int) -> String {
        var depth = 1
        var end = start
        while end < text.length && depth > 0 {
            let unit = text.character(at: end)
            if unit == 0x28 { depth += 1 } else if unit == 0x29 { depth -= 1 }
            end += 1
        }
        return text.substring(with: NSRange(location: start, length: max(0, end - start - 1)))
    }

    private static func has(_ regex: NSRegularExpression?, _ text: String) -> Bool {
        regex?.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) != nil
    }

    /// The capture groups of every match (group 0 is the whole match; unmatched groups are empty).
    private static func matches(_ regex: NSRegularExpression?, in text: String) -> [[String]] {
        guard let regex else { return [] }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (0..<match.numberOfRanges).map { k in
                let range = match.range(at: k)
                return range.location == NSNotFound ? "" : ns.substring(with: range)
            }
        }
    }
}
