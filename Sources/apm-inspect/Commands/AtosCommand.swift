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

    func validate() throws {
        if let loadAddress, AtosAddress.parse(loadAddress) == nil {
            throw ValidationError("-l must be a hexadecimal address, not '\(TerminalText.escaped(loadAddress))'")
        }
        for address in addresses where AtosAddress.parse(address) == nil {
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
        let load = loadAddress.flatMap(AtosAddress.parse)
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
                AtosAddress.forEachWord(of: bytes) { word in
                    if let address = AtosAddress.parse(word) {
                        answer(address)
                    } else {
                        let text = String(decoding: word, as: UTF8.self)
                        Console.error("warning: '\(TerminalText.escaped(text))' is not a hexadecimal address")
                    }
                }
            }
        } else {
            // validate() refused any argument that is not an address.
            for address in addresses.compactMap(AtosAddress.parse) { answer(address) }
        }
        writer.finish()
    }

    /// Opens `-o`: a `.dSYM` bundle's DWARF file, or the file itself; picks the slice by `-arch`.
    private func openImage() throws(SymbolicationError) -> (DebugImage, String) {
        let path = Self.dwarfFile(for: object)
        let name = (path as NSString).lastPathComponent
        return (try AtosImage.open(path: path, architecture: architecture), name)
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
}
