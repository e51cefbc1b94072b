import APMInspectCore
import Symbolication

/// Writes `apm-inspect atos` answers as they come, byte for byte what the executable's
/// `AtosCommand.atosLines(_:address:binary:inlines:)` and the sorted pretty JSON of `AtosCommand.Result` give, written
/// by hand for speed.
///
/// Each name is demangled, escaped and quoted once per key of the ``ImageLocator`` and kept; each path likewise.
/// Going through `String` building and the `Encodable` JSON writer per frame was most of the time of issue 16's
/// benchmark (100,000 addresses), and the JSON form held its whole output (87 MB) before writing. What is kept is
/// bounded (``maximumKeptBytes``); past it, pieces are made per frame again.
package final class AtosOutputWriter {
    /// What is kept for one name key.
    private struct Name {
        /// Text: `name (in Binary)`.
        var text: [UInt8]
        /// JSON: the quoted symbol, and the quoted demangled form or `null`.
        var symbol: [UInt8]
        var demangled: [UInt8]
    }

    /// What is kept for one file key.
    private struct File {
        /// Text: ` (base:`.
        var text: [UInt8]
        /// JSON: the quoted path.
        var path: [UInt8]
    }

    /// Most bytes of pieces kept.
    package static let maximumKeptBytes = 64 << 20

    private let output: OutputBuffer
    /// Where the text of a location's keys comes from.
    private let locator: ImageLocator
    private let json: Bool
    private let inlines: Bool
    private let shownBinary: String
    private var names: [Name?] = []
    private var files: [File?] = []
    private var keptBytes = 0
    private var results = 0

    package init(locator: ImageLocator, json: Bool, inlines: Bool, binary: String, output: OutputBuffer) {
        self.locator = locator
        self.output = output
        self.json = json
        self.inlines = inlines
        shownBinary = TerminalText.escaped(binary)
    }

    /// Writes the answer for one address.
    package func write(_ locations: [ImageLocator.Location], address: UInt64, fileAddress: UInt64?) {
        if json {
            writeJSON(locations, address: address, fileAddress: fileAddress)
        } else {
            writeText(locations, address: address)
        }
    }

    /// Ends the output (the JSON array) and writes what is held.
    package func finish() {
        if json { output.append(results == 0 ? "[\n\n]\n" : "\n]\n") }
        output.flush()
    }

    // MARK: Text

    private func writeText(_ locations: [ImageLocator.Location], address: UInt64) {
        guard let concrete = locations.last, let innermost = locations.first else {
            output.append(hex: address)
            output.append(byte: UInt8(ascii: "\n"))
            return
        }
        if inlines {
            for location in locations {
                writeLine(location, offset: location.symbolOffset, file: location, line: location.line)
            }
        } else {
            writeLine(concrete, offset: concrete.symbolOffset, file: innermost, line: innermost.line)
        }
    }

    /// One atos line: `name (in Binary) (base:line)`, or `name (in Binary) + offset` without a file and line.
    private func writeLine(_ named: ImageLocator.Location, offset: UInt64, file: ImageLocator.Location, line: Int?) {
        name(named) { output.append($0.text) }
        if file.hasFile, let line {
            self.file(file) { output.append($0.text) }
            output.append(decimal: UInt64(clamping: line))
            output.append(")\n")
        } else {
            output.append(" + ")
            output.append(decimal: offset)
            output.append(byte: UInt8(ascii: "\n"))
        }
    }

    // MARK: JSON

    private func writeJSON(_ locations: [ImageLocator.Location], address: UInt64, fileAddress: UInt64?) {
        output.append(results == 0 ? "[\n  {\n    \"address\" : \"" : ",\n  {\n    \"address\" : \"")
        results += 1
        output.append(hex: address)
        if let fileAddress {
            output.append("\",\n    \"fileAddress\" : \"")
            output.append(hex: fileAddress)
        }
        output.append("\",\n    \"locations\" : [")
        guard !locations.isEmpty else {
            output.append("\n\n    ]\n  }")
            return
        }
        for (position, location) in locations.enumerated() {
            output.append(position == 0 ? "\n      {\n        \"column\" : " : ",\n      {\n        \"column\" : ")
            writeOptional(location.column)
            output.append(",\n        \"demangled\" : ")
            name(location) { output.append($0.demangled) }
            output.append(",\n        \"file\" : ")
            if location.hasFile { file(location) { output.append($0.path) } } else { output.append("null") }
            output.append(location.isInlined ? ",\n        \"inlined\" : true" : ",\n        \"inlined\" : false")
            output.append(",\n        \"line\" : ")
            writeOptional(location.line)
            output.append(",\n        \"symbol\" : ")
            name(location) { output.append($0.symbol) }
            output.append(",\n        \"symbolOffset\" : ")
            output.append(decimal: location.symbolOffset)
            output.append("\n      }")
        }
        output.append("\n    ]\n  }")
    }

    private func writeOptional(_ value: Int?) {
        guard let value else {
            output.append("null")
            return
        }
        if value < 0 { output.append(byte: UInt8(ascii: "-")) }
        output.append(decimal: UInt64(value.magnitude))
    }

    // MARK: Kept pieces

    /// Hands `body` the pieces of `location`'s symbol: kept under its key, made now otherwise.
    private func name(_ location: ImageLocator.Location, _ body: (Name) -> Void) {
        let key = location.symbolKey
        if key >= 0, key < names.count, let kept = names[key] {
            body(kept)
            return
        }
        let made = makeName(locator.symbol(of: location))
        if key >= 0, keep(made.text.count + made.symbol.count + made.demangled.count) {
            if key >= names.count { names += Array(repeating: nil, count: key + 1 - names.count) }
            names[key] = made
        }
        body(made)
    }

    private func file(_ location: ImageLocator.Location, _ body: (File) -> Void) {
        let key = location.fileKey
        if key >= 0, key < files.count, let kept = files[key] {
            body(kept)
            return
        }
        let made = makeFile(locator.file(of: location) ?? "")
        if key >= 0, keep(made.text.count + made.path.count) {
            if key >= files.count { files += Array(repeating: nil, count: key + 1 - files.count) }
            files[key] = made
        }
        body(made)
    }

    private func makeName(_ symbol: String) -> Name {
        let demangled = Demangler.demangle(symbol)
        var name = Name(text: [], symbol: [], demangled: [])
        if json {
            name.symbol = Self.quoted(symbol)
            name.demangled = demangled.map(Self.quoted) ?? Array("null".utf8)
        } else {
            name.text = Array("\(TerminalText.escaped(demangled ?? symbol)) (in \(shownBinary))".utf8)
        }
        return name
    }

    private func makeFile(_ path: String) -> File {
        var file = File(text: [], path: [])
        if json {
            file.path = Self.quoted(path)
        } else {
            let base =
                path.utf8.lastIndex(of: UInt8(ascii: "/")).map {
                    String(decoding: path.utf8[path.utf8.index(after: $0)...], as: UTF8.self)
                } ?? path
            file.text = Array(" (\(TerminalText.escaped(base)):".utf8)
        }
        return file
    }

    private func keep(_ size: Int) -> Bool {
        guard keptBytes + size <= Self.maximumKeptBytes else { return false }
        keptBytes += size
        return true
    }

    /// `text` quoted and escaped as the JSON writer does (`.withoutEscapingSlashes`): `"`, `\` and control
    /// characters only, `\u00xx` in lowercase for those without a short form.
    package static func quoted(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0x08: bytes += [0x5C, UInt8(ascii: "b")]
            case 0x0C: bytes += [0x5C, UInt8(ascii: "f")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8)
                bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }
}
