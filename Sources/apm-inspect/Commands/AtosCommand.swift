import APMInspectCore
import ArgumentParser
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
        let run = AtosRun(
            object: object,
            architecture: architecture,
            loadAddress: loadAddress.flatMap(AtosAddress.parse),
            inlines: inlines,
            json: format == .json,
            sink: .console
        )
        // validate() refused any argument that is not an address.
        if !run.run(addresses.compactMap(AtosAddress.parse)) { throw ExitCode(1) }
    }
}
