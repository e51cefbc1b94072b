import Foundation
import ReportRendering
import Testing

@testable import apm_inspect

/// Issue 19: `inspect`'s text view of a crash report shows what Console.app shows on request (`--threads all`,
/// `--frames`, `--images`, `--registers`), and colours the crashed thread and errors without letting a report's
/// own escape sequences through.
@Suite("crash view flags")
struct CrashViewFlagsTests {
    static let textCrash = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
    static let jsonCrash = "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
    static let sgrCrashed = "\u{1B}[1;31m"
    static let sgrReset = "\u{1B}[0m"

    private func inspect(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            // Whole lines: these tests read frames, images and registers as written, not as a terminal fits them.
            ["inspect", "--wide"] + arguments,
            environment: environment
        )
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    /// The frame rows of the backtrace under `heading`: the lines after its column headings, up to a blank line.
    private func frameRows(after heading: String, in out: String) -> [Substring] {
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        return Array(lines[(start + 2)...].prefix { !$0.isEmpty && !$0.hasPrefix("  …") })
    }

    @Test func defaultViewIsTheCrashedThreadsFirstTwelveFrames() throws {
        let plain = try inspect([Self.textCrash])
        let spelled = try inspect(["--threads", "crashed", "--frames", "12", "--color", "never", Self.textCrash])
        #expect(plain == spelled)
        #expect(plain.contains("\nThread 0 crashed  queue com.apple.main-thread (app frames marked ▶)\n"))
        #expect(!plain.contains("\nThread 1"))
        #expect(!plain.contains("Binary images"))
        #expect(!plain.contains("Thread 0 state"))
    }

    @Test func threadsAllShowsEveryThreadHeading() throws {
        let out = try inspect(["--threads", "all", Self.textCrash])
        #expect(out.contains("\nThread 0 crashed  queue com.apple.main-thread (app frames marked ▶)\n"))
        #expect(out.contains("\nThread 1  com.apple.uikit.eventfetch-thread\n"))
        #expect(out.contains("\nThread 2  queue com.brightleaf.lumen.thumbnail-decode\n"))
        #expect(!frameRows(after: "Thread 1 ", in: out).isEmpty)
        // An .ips report the same way: its three threads, in order.
        let json = try inspect(["--threads", "all", Self.jsonCrash])
        let headings = json.split(separator: "\n").filter { $0.hasPrefix("Thread ") }
        #expect(headings.count == 3)
        #expect(headings.first?.hasPrefix("Thread 0 crashed") == true)
    }

    @Test func framesLimitsEveryBacktraceAndSaysHowManyAreLeft() throws {
        let out = try inspect(["--threads", "all", "--frames", "3", Self.jsonCrash])
        let crashed = frameRows(after: "Thread 0 crashed", in: out)
        #expect(crashed.count == 3)
        #expect(out.contains("  … 12 more frames\n"))  // the crashed thread's 15 frames
        #expect(frameRows(after: "Last exception backtrace", in: out).count == 3)
        for heading in out.split(separator: "\n").filter({ $0.hasPrefix("Thread ") }) {
            #expect(frameRows(after: String(heading), in: out).count <= 3)
        }
        for every in ["0", "all"] {
            let all = try inspect(["--frames", every, Self.jsonCrash])
            #expect(frameRows(after: "Thread 0 crashed", in: all).count == 15)
            #expect(frameRows(after: "Last exception backtrace", in: all).count == 20)
            #expect(!all.contains("more frames"))
        }
    }

    @Test func aFrameCountThatIsNotOneIsAUsageError() throws {
        for bad in ["-1", "three"] {
            let run = try BuiltCommandTests.run(
                try BuiltCommandTests.binary(),
                ["inspect", "--frames=\(bad)", Self.textCrash]
            )
            #expect(run.status == 2, "\(bad): \(run.stderr)")
        }
    }

    @Test func imagesAreListedInApplesLayoutWithTheirUUIDs() throws {
        let out = try inspect(["--images", Self.textCrash])
        #expect(out.contains("\nBinary images\n"))
        #expect(
            out.contains(
                "  0x1025a0000 - 0x102763fff Lumen arm64  <d61e2520a303382fb51d1d5d1c045cb6> "
                    + "/private/var/containers/Bundle/Application/8EBB5EC6-9562-4143-A70D-D2D459060232/Lumen.app/Lumen\n"
            )
        )
        #expect(out.contains(" dyld arm64e  <a4687e3d89893e4582f4748ef518e6b0> /usr/lib/dyld\n"))
        let imageLines = out.split(separator: "\n").filter { $0.hasPrefix("  0x") && $0.contains(" - 0x") }
        #expect(imageLines.count == 13)
        #expect(imageLines.allSatisfy { $0.contains("  <") && $0.contains("> /") })
    }

    @Test func registersShowTheCrashedThreadsState() throws {
        let out = try inspect(["--registers", Self.textCrash])
        #expect(out.contains("\nThread 0 state"))
        #expect(out.contains("\n    x0: 0x0000000000000000   x1: 0x00000002817c4a80   x2: 0x0000000000000060"))
        #expect(out.contains("  pc: 0x0000000102a20b80"))
        #expect(out.contains("(Data Abort) byte read Translation fault\n"))
        let json = try inspect(["--registers", Self.jsonCrash])
        #expect(json.contains("\nThread 0 state"))
        #expect(json.contains("pc: 0x"))
    }

    @Test func colorAlwaysWrapsTheCrashedThreadHeading() throws {
        let out = try inspect(["--color", "always", Self.textCrash])
        #expect(
            out.contains(
                "\n\(Self.sgrCrashed)Thread 0 crashed  queue com.apple.main-thread (app frames marked ▶)\(Self.sgrReset)\n"
            )
        )
        // Nothing else is coloured: without the codes the view is the plain one.
        let plain = try inspect([Self.textCrash])
        #expect(
            out.replacingOccurrences(of: Self.sgrCrashed, with: "").replacingOccurrences(of: Self.sgrReset, with: "")
                == plain
        )
    }

    @Test func warningAndErrorLinesAreColoured() throws {
        let out = try inspect([
            "--color", "always", "Corpus/kscrash/v3.2.0_ios17.1_recrash_crash_in_handler_incomplete.json",
        ])
        #expect(out.contains("\n  \u{1B}[33mwarning: KSCrash marked the report incomplete"))
        let missing = "/nonexistent/\(UUID().uuidString).ips"
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect", "--color", "always", missing])
        #expect(run.status == 1)
        #expect(
            run.stdout.contains("\n  \u{1B}[31mcould not be read: cannot open: No such file or directory\u{1B}[0m\n")
        )
        // Standard error keeps its `path: error: message` form, the severity word coloured, the path as written.
        #expect(run.stderr.hasPrefix("\(missing): \u{1B}[1;31merror\u{1B}[0m: "))
        let plain = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect", "--color", "never", missing])
        #expect(plain.stderr.hasPrefix("\(missing): error: "))
        // Piped, without --color: no colour on either stream.
        let piped = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect", missing])
        #expect(!piped.stderr.contains("\u{1B}") && !piped.stdout.contains("\u{1B}"))
    }

    @Test func neverAndNoColorAndAPipeGiveNoColor() throws {
        #expect(!(try inspect(["--color", "never", Self.textCrash])).contains("\u{1B}"))
        #expect(
            !(try inspect(["--threads", "all", Self.textCrash], environment: ["NO_COLOR": "1"])).contains("\u{1B}")
        )
        #expect(!(try inspect(["--color", "always", "--format", "json", Self.textCrash])).contains("\u{1B}"))
        #expect(ColorChoice.auto.isEnabled(outputIsTerminal: true, noColor: nil))
        #expect(ColorChoice.auto.isEnabled(outputIsTerminal: true, noColor: ""))
        #expect(!ColorChoice.auto.isEnabled(outputIsTerminal: true, noColor: "1"))
        #expect(!ColorChoice.auto.isEnabled(outputIsTerminal: false, noColor: nil))
        #expect(ColorChoice.always.isEnabled(outputIsTerminal: false, noColor: "1"))
        #expect(!ColorChoice.never.isEnabled(outputIsTerminal: true, noColor: nil))
    }

    @Test func aBadColorValueIsAUsageError() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--color", "sometimes", Self.textCrash]
        )
        #expect(run.status == 2)
        #expect(run.stderr.contains("sometimes"))
    }

    /// Escape sequences in a thread name, a queue and a symbol reach the terminal as `\x1b` with colour on: the
    /// only ESC bytes written are our SGR codes around the crashed thread's heading.
    @Test func escapesInTheReportStayEscapedWithColorOn() throws {
        let original = try String(
            contentsOf: BuiltCommandTests.root.appendingPathComponent(Self.textCrash),
            encoding: .utf8
        )
        let hostile =
            original
            .replacingOccurrences(of: "com.apple.main-thread", with: "main\u{1B}[0m\u{1B}[2Jqueue")
            .replacingOccurrences(of: "com.apple.uikit.eventfetch-thread", with: "fetch\u{1B}]0;pwned\u{07}thread")
            .replacingOccurrences(of: "ThumbnailCache.entry(for:)", with: "entry\u{1B}[31m(for:)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hostile.crash")
        try hostile.write(to: file, atomically: true, encoding: .utf8)
        let out = try inspect(["--color", "always", "--threads", "all", "--registers", "--images", file.path])
        #expect(
            out.contains(
                "\(Self.sgrCrashed)Thread 0 crashed  queue main\\x1b[0m\\x1b[2Jqueue (app frames marked ▶)\(Self.sgrReset)"
            )
        )
        #expect(out.contains("Thread 1  fetch\\x1b]0;pwned\\x07thread\n"))
        #expect(out.contains("entry\\x1b[31m(for:)"))
        let ours = out.replacingOccurrences(of: Self.sgrCrashed, with: "").replacingOccurrences(
            of: Self.sgrReset,
            with: ""
        )
        #expect(!ours.contains("\u{1B}"))
        #expect(!ours.contains("\u{07}"))
    }

    @Test func styledSpansAreEscapedBeforeTheirColor() {
        var view = StyledText("plain \u{1B}[2J\n")
        view.append("bad \u{1B}[0m", style: .error)
        view += "\n"
        #expect(view.terminalText(color: false) == "plain \\x1b[2J\nbad \\x1b[0m\n")
        #expect(view.terminalText(color: true) == "plain \\x1b[2J\n\u{1B}[31mbad \\x1b[0m\u{1B}[0m\n")
        #expect(view.plain == "plain \u{1B}[2J\nbad \u{1B}[0m\n")
    }
}
