import APMInspectCore
import ArgumentParser
import Foundation
import ReportRendering
import Symbolication

/// `apm-inspect atos -o DSYM_OR_BINARY [-arch A] [-l LOAD_ADDRESS] [-i] ADDRESS...`: atos on Linux.
struct AtosCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "atos",
        abstract: "Resolve addresses of one binary image to functions and source lines, as atos does.",
        discussion: """
            Reads the DWARF of a .dSYM bundle (its Contents/Resources/DWARF file) or of a Mach-O, thin or fat, and \
            the symbol table when the DWARF has no function for an address. Each address prints as atos prints \
            it: `function (in Binary) (file:line)`; an address nothing covers is echoed. Without -l the addresses \
            are file addresses (the image at its __TEXT vmaddr); with -l they are runtime addresses of the image \
            loaded there. -i prints the inlined frames, innermost first, one line each; without it the function \
            is the concrete one and the line is the innermost. Names are demangled (Swift as Apple prints them, \
            C++); --format json gives both forms and every frame's column.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "Addresses of an image loaded at 0x102f1c000, inlined frames too",
            "atos -o Tests/SymbolicationTests/Fixtures/Demo-arm64.dSYM -l 0x102f1c000 -i 0x102f2004c 0x102f200b0"
        )
    ]

    @Option(
        name: .customShort("o"),
        help: ArgumentHelp("The .dSYM bundle, its DWARF file, or a Mach-O binary.", valueName: "path")
    )
    var object: String

    @Option(
        name: .customLong("arch", withSingleDash: true),
        help: ArgumentHelp("Architecture of a fat file (arm64, x86_64 …).", valueName: "arch")
    )
    var architecture: String?

    @Option(
        name: .customShort("l"),
        help: ArgumentHelp("Load address of the image (hexadecimal).", valueName: "load-address")
    )
    var loadAddress: String?

    @Flag(name: .customShort("i"), help: "Print inlined frames, innermost first.")
    var inlines = false

    @Option(name: .shortAndLong, help: "Output format: text (atos) or json.")
    var format: AtosFormat = .text

    @Argument(help: "Addresses (hexadecimal, 0x optional); none: read them from standard input, as atos does.")
    var addresses: [String] = []

    enum AtosFormat: String, ExpressibleByArgument, CaseIterable {
        case text
        case json
    }

    /// One address in `--format json`.
    struct Result: Encodable {
        var address: String
        var fileAddress: String?
        var locations: [Location]
    }

    /// One frame; every key is present (null when unknown) so scripts need not test for it.
    struct Location: Encodable {
        var symbol: String
        var demangled: String?
        var symbolOffset: UInt64
        var file: String?
        var line: Int?
        var column: Int?
        var inlined: Bool

        enum CodingKeys: String, CodingKey {
            case symbol, demangled, symbolOffset, file, line, column, inlined
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(demangled, forKey: .demangled)
            try container.encode(symbolOffset, forKey: .symbolOffset)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(inlined, forKey: .inlined)
        }
    }

    func validate() throws {
        if let loadAddress, Self.parseAddress(loadAddress) == nil {
            throw ValidationError("-l must be a hexadecimal address, not '\(TerminalText.escaped(loadAddress))'")
        }
        for address in addresses where Self.parseAddress(address) == nil {
            throw ValidationError("'\(TerminalText.escaped(address))' is not a hexadecimal address")
        }
        if let architecture, MachOArchitecture(name: architecture) == nil {
            throw ValidationError("unknown architecture '\(TerminalText.escaped(architecture))'")
        }
    }

    func run() throws {
        let image: DebugImage
        let binaryName: String
        do {
            (image, binaryName) = try openImage()
        } catch {
            Console.error(ErrorLine.render(path: object, location: error.location, message: error.message))
            throw ExitCode(1)
        }
        for issue in image.issues.prefix(20) {
            Console.error(
                ErrorLine.render(path: object, location: issue.location, message: issue.message, severity: "warning")
            )
        }
        let load = loadAddress.flatMap(Self.parseAddress)
        let locator = ImageLocator(image: image)
        let writer = AtosOutputWriter(
            locator: locator,
            json: format == .json,
            inlines: inlines,
            binary: binaryName,
            output: OutputBuffer { Console.out(bytes: $0) }
        )
        var locations: [ImageLocator.Location] = []
        func answer(_ address: UInt64) {
            // Once the reader is gone (`| head`) the rest would be resolved for nobody.
            guard !Console.outputFailed else { return }
            let fileAddress = load.map { image.fileAddress(of: address, loadAddress: $0) } ?? address
            if let fileAddress { locator.locations(at: fileAddress, into: &locations) } else { locations.removeAll() }
            writer.write(locations, address: address, fileAddress: fileAddress)
        }
        if addresses.isEmpty {
            let input = Self.standardInput()
            input.withUnsafeBufferPointer { bytes in
                Self.forEachWord(of: bytes) { word in
                    if let address = Self.parseAddress(word) {
                        answer(address)
                    } else {
                        let text = String(decoding: word, as: UTF8.self)
                        Console.error("warning: '\(TerminalText.escaped(text))' is not a hexadecimal address")
                    }
                }
            }
        } else {
            // validate() refused any argument that is not an address.
            for address in addresses.compactMap(Self.parseAddress) { answer(address) }
        }
        writer.finish()
    }

    /// One address in `--format json`: both forms of every name (the fuzz worker renders its answers with this
    /// too, so what it checks is what users get).
    static func result(_ locations: [SymbolicatedLocation], address: UInt64, fileAddress: UInt64?) -> Result {
        Result(
            address: hex(address),
            fileAddress: fileAddress.map(hex),
            locations: locations.map {
                Location(
                    symbol: $0.symbol,
                    demangled: Demangler.demangle($0.symbol),
                    symbolOffset: $0.symbolOffset,
                    file: $0.file,
                    line: $0.line,
                    column: $0.column,
                    inlined: $0.isInlined
                )
            }
        )
    }

    /// atos's lines for one address: `name (in Binary) (file:line)`, or `name (in Binary) + offset` without a
    /// line; the address itself when nothing covers it.
    static func atosLines(
        _ locations: [SymbolicatedLocation],
        address: UInt64,
        binary: String,
        inlines: Bool
    ) -> String {
        guard let concrete = locations.last, let innermost = locations.first else { return hex(address) + "\n" }
        let shownBinary = TerminalText.escaped(binary)
        func line(name: String, offset: UInt64, file: String?, line: Int?) -> String {
            let shownName = TerminalText.escaped(Demangler.demangle(name) ?? name)
            if let file, let line {
                let base =
                    file.utf8.lastIndex(of: UInt8(ascii: "/")).map {
                        String(decoding: file.utf8[file.utf8.index(after: $0)...], as: UTF8.self)
                    } ?? file
                return "\(shownName) (in \(shownBinary)) (\(TerminalText.escaped(base)):\(line))\n"
            }
            return "\(shownName) (in \(shownBinary)) + \(offset)\n"
        }
        if inlines {
            return locations.map { line(name: $0.symbol, offset: $0.symbolOffset, file: $0.file, line: $0.line) }
                .joined()
        }
        return line(name: concrete.symbol, offset: concrete.symbolOffset, file: innermost.file, line: innermost.line)
    }

    /// Opens `-o`: a `.dSYM` bundle's DWARF file, or the file itself; picks the slice by `-arch`.
    private func openImage() throws(SymbolicationError) -> (DebugImage, String) {
        let path = Self.dwarfFile(for: object)
        let file = try MachOFile(path: path)
        let slice: MachOSlice
        if let architecture, let wanted = MachOArchitecture(name: architecture) {
            guard let found = file.slice(for: wanted) else {
                let present = file.slices.map(\.architecture.name).joined(separator: ", ")
                throw SymbolicationError(.unreadable, "no \(architecture) slice (the file has \(present))")
            }
            slice = found
        } else if file.slices.count == 1, let only = file.slices.first {
            slice = only
        } else {
            let present = file.slices.map(\.architecture.name).joined(separator: ", ")
            throw SymbolicationError(.unreadable, "a fat file: choose a slice with -arch (\(present))")
        }
        let name = (path as NSString).lastPathComponent
        return (try DebugImage(slice: slice), name)
    }

    /// The DWARF file inside a `.dSYM` bundle (the only file of `Contents/Resources/DWARF`, or the one named as
    /// the bundle), else `path` unchanged.
    static func dwarfFile(for path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return path
        }
        let folder = (path as NSString).appendingPathComponent("Contents/Resources/DWARF")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        let bundleName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let named = names.first(where: { $0 == bundleName }) ?? names.first {
            return (folder as NSString).appendingPathComponent(named)
        }
        return path
    }

    /// Most of standard input read for addresses (about 4 million of them).
    static let standardInputLimit = 64 << 20

    /// Standard input, up to ``standardInputLimit`` bytes (and the rest of the read that crossed it).
    static func standardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < standardInputLimit {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Calls `body` with each word of `bytes` (runs between spaces, tabs, carriage returns and newlines), without
    /// making a `String` of each: a hundred thousand addresses on standard input were a tenth of the run.
    static func forEachWord(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0a || byte == 0x09 || byte == 0x0d }
        var position = 0
        while position < bytes.count {
            while position < bytes.count, isSpace(bytes[position]) { position += 1 }
            let start = position
            while position < bytes.count, !isSpace(bytes[position]) { position += 1 }
            if position > start { body(UnsafeBufferPointer(rebasing: bytes[start..<position])) }
        }
    }

    /// ``parseAddress(_:)-(String)`` of a word given as bytes: plain hexadecimal digits are read in place, anything
    /// else goes through the `String` form, so both accept the same words.
    static func parseAddress(_ word: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var start = 0
        if word.count > 2, word[0] == UInt8(ascii: "0"), word[1] | 0x20 == UInt8(ascii: "x") { start = 2 }
        var value: UInt64 = 0
        var plain = word.count - start <= 16
        var position = start
        while plain, position < word.count {
            let byte = word[position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt64(byte - UInt8(ascii: "A") + 10)
            default: plain = false
            }
            position += 1
        }
        if plain { return value }
        return parseAddress(String(decoding: word, as: UTF8.self))
    }

    /// A hexadecimal address, `0x` optional.
    static func parseAddress(_ text: String) -> UInt64? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        return UInt64(digits, radix: 16)
    }
}

private func hex(_ value: UInt64) -> String {
    "0x" + String(value, radix: 16)
}
