import Foundation
import Testing

/// Issue 20: the facts a crash report is opened for appear in `inspect`'s text view, not only in its JSON.
@Suite("crash text view")
struct CrashTextViewTests {
    private func inspect(_ file: String) throws -> String {
        // Whole lines: these tests read frames and fields as the report writes them, not as a terminal fits them.
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect", "--wide", file])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test func resourceLimitAndObservationAreShown() throws {
        let out = try inspect("Corpus/crash/ios13.3.1_text_exc_resource_cpu_non_fatal_thread_attributed.crash")
        #expect(out.contains("Message    (Limit 50%) Observed 80% over 180 secs"))
    }

    @Test func bothExceptionCodesLinesAreShown() throws {
        let out = try inspect(
            "Corpus/crash/macos12.6_text_x86_64_exc_bad_access_gpflt_two_exception_codes_spliced_symbols.crash"
        )
        #expect(out.contains("Codes        EXC_I386_GPFLT\n"))
        #expect(out.contains("             0x000000000000000d, 0x0000000000000000\n"))
        #expect(out.contains("general-protection fault"))
        #expect(!out.contains("fault address"))
        #expect(out.contains("-[NSOutlineView(NSOutlineViewInternal) _childOfItem:atIndex:] + 64"))
    }

    @Test func signalOnlyTypeEmptyVersionAndCommentSymbols() throws {
        let out = try inspect(
            "Corpus/crash/plcrashreporter_style_ios15_sigbus_bus_adraln_empty_version_third_party_comment_symbols.crash"
        )
        #expect(out.contains("Version    ???\n"))
        #expect(out.contains("Exception  SIGBUS\n"))
        #expect(out.contains("misaligned memory access"))
        #expect(!out.contains("pointer authentication"))
        #expect(out.contains("PixelBuffer.readUInt32(at:) + 36"))
    }
}
