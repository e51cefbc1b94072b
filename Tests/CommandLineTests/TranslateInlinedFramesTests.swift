import Foundation
import Testing

/// `translate --dsym` prints an inlined chain as `symbolicate` does: each inlined function's frame marked
/// `[inlined]`, so the text reads the same whichever command resolved it.
@Suite("translate: inlined frames")
struct TranslateInlinedFramesTests {
    @Test("the chain at one address: the inlined frames marked, the concrete one not, in both commands")
    func inlinedChain() throws {
        let binary = try BuiltCommandTests.binary()
        let dsym = "Tests/SymbolicationTests/Fixtures/Demo-arm64.dSYM"
        let translated = try BuiltCommandTests.run(
            binary,
            ["translate", "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips", "--dsym", dsym]
        )
        #expect(translated.status == 0, "\(translated.stderr)")
        let symbolicated = try BuiltCommandTests.run(
            binary,
            ["symbolicate", "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash", "--dsym", dsym]
        )
        for run in [translated, symbolicated] {
            // The crashed thread's first three frames (the address shows again in the registers' thread state).
            let chain = Array(
                run.stdout.split(separator: "\n").filter { $0.contains("102f2004c ") && $0.first?.isNumber == true }
                    .prefix(3)
            )
            #expect(chain.count == 3, "\(chain)")
            #expect(chain.map { $0.hasSuffix(" [inlined]") } == [true, true, false], "\(chain)")
            #expect(chain.last?.hasSuffix("compute + 76 (main.c:16)") == true, "\(chain)")
        }
    }
}
