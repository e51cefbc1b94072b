import ArgumentParser
import ReportRendering

/// `apm-inspect demangle [NAME...]`: Swift and C++ names made readable, as `swift-demangle` and `c++filt` do.
struct DemangleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demangle",
        abstract: "Make Swift and C++ symbol names readable, as swift-demangle and c++filt do.",
        discussion: """
            Each NAME is printed demangled, or as given when it is not a mangled name. With no NAME, standard \
            input is read line by line and every mangled token in a line is replaced (a filter, as c++filt is: \
            `... | apm-inspect demangle`). Swift names (`$s`, `$S`, `_T0`, and Swift 1-3's `_T`, with or without \
            the Mach-O underscore) print in the form Apple's crash reports use, the form every other command \
            prints (swift-demangle --simplified); --full prints module names and types as swift-demangle does \
            without --simplified (Swift 4 and later). C++ names (`_Z`, `__Z`) print as llvm-cxxfilt 15 and later \
            prints them, as Apple's tools do, and blocks' invocation functions (`___Z..._block_invoke`) as \
            `invocation function for block in ...`. Control characters are escaped and invalid UTF-8 shows as \
            U+FFFD.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("A Swift and a C++ name", "demangle '$s4Demo14ViewControllerC11viewDidLoadyyF' _ZN3foo3barEv")
    ]

    @Flag(help: "Print Swift names in full: module names, parameter and return types.")
    var full = false

    @Argument(help: "Names to demangle; none: filter standard input.")
    var names: [String] = []

    func run() throws {
        DemangleRun(names: names, full: full, sink: .console).run()
    }
}
