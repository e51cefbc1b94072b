import Foundation
import Testing

/// `apm-inspect demangle`, run as a user would: names as arguments, or a filter over standard input that replaces
/// each mangled token of a line and keeps the rest of the line as it was.
@Suite("demangle: names and a filter")
struct DemangleCommandTests {
    static let swiftName = "$s4Demo14ViewControllerC11viewDidLoadyyF"
    static let closure = "_$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_"

    @Test("arguments: Swift in the form Apple's reports print, C++ as __cxa_demangle, anything else as given")
    func arguments() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["demangle", Self.swiftName, Self.closure, "_ZN3foo3barEv", "__ZN4demo8geometry5Shape4areaEv", "main"]
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n") == [
                "ViewController.viewDidLoad()", "closure #1 in ViewController.viewDidLoad()", "foo::bar()",
                "demo::geometry::Shape::area()", "main",
            ]
        )
    }

    @Test("--full prints module names and types, as swift-demangle does without --simplified")
    func full() throws {
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["demangle", "--full", Self.swiftName])
        #expect(run.stdout == "Demo.ViewController.viewDidLoad() -> ()\n")
    }

    @Test("standard input: every mangled token of a line replaced, the rest of the line kept byte for byte")
    func filter() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.path + "/frames.txt"
        let lines = [
            "0   Demo  0x0000000102f2004c \(Self.swiftName) + 76",
            "1   Demo  0x0000000102f200b0 _ZN3foo3barEv + 12 (\(Self.closure))",
            "2   libsystem_c.dylib\tabort + 124",
            "no newline at the end $s4Demo14ViewControllerC11viewDidLoadyyF",
        ]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: input))
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["demangle"], stdin: input)
        #expect(run.status == 0)
        #expect(
            run.stdout
                == [
                    "0   Demo  0x0000000102f2004c ViewController.viewDidLoad() + 76",
                    "1   Demo  0x0000000102f200b0 foo::bar() + 12 (closure #1 in ViewController.viewDidLoad())",
                    "2   libsystem_c.dylib\tabort + 124",
                    "no newline at the end ViewController.viewDidLoad()",
                ].joined(separator: "\n")
        )
    }

    @Test("control characters from the input are escaped; a line of megabytes is passed in pieces, not held whole")
    func hostileInput() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.path + "/hostile.txt"
        // A token runs over letters and digits as c++filt's does, so the name after the colour code stands apart.
        var bytes = Array("\u{1B}[31m _ZN3foo3barEv\n".utf8)
        // 3 MiB of one token-like run and a name after it on the same line.
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 3 << 20) + Array(" _ZN3foo3barEv\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["demangle"], stdin: input)
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(run.stdout.hasPrefix("\\x1b[31m foo::bar()\n"))
        #expect(run.stdout.hasSuffix(" foo::bar()\n"))
        // The escape grows by three bytes; each of the two names shrinks by three.
        #expect(run.stdout.utf8.count == bytes.count + 3 - 2 * 3)
    }
}
