import APMInspectCore
import Testing

@testable import ParserFuzzing

@Suite("FuzzFailure")
struct FuzzFailureTests {
    /// The head of a real worker's standard error from a release build (paths shortened).
    static let backtrace = """

        *** Signal 4: Backtracing from 0x562e7a08fed4... done ***

        *** Swift runtime failure: Range requires lowerBound <= upperBound ***

        Platform: x86_64 Linux (Debian GNU/Linux 12 (bookworm))

        Thread 0 "apm-inspect" crashed:

          0 [inlined] [system]      0x0000562e7a08fed4 Swift runtime failure: Range requires lowerBound <= upperBound in apm-inspect at //<compiler-generated>
          1                         0x0000562e7a08fed4 specialized static HTTPRenderer.bar(_:offset:scale:) + 3476 in apm-inspect at /src/HTTPRenderer.swift:152:37
          2 [ra] [inlined] [system] 0x0000562e7a090ac1 static HTTPRenderer.bar(_:offset:scale:) in apm-inspect at //<compiler-generated>
          3 [ra]                    0x0000562e7a090ac1 specialized static HTTPRenderer.waterfall(_:limit:) + 2800 in apm-inspect at /src/HTTPRenderer.swift:134:23
          4 [ra]                    0x0000562e7a092153 specialized static HTTPRenderer.render(_:file:title:detailed:slowest:) + 4770 in apm-inspect at /src/HTTPRenderer.swift:57:16
          5 [ra]                    0x0000562e7a0b128b FuzzOracle.check(_:) + 195 in apm-inspect at /src/FuzzOracle.swift:28:32

        """

    @Test("the crashed thread's frames, runtime frames skipped and specialised copies merged")
    func frames() {
        #expect(
            FuzzFailure.frames(in: Self.backtrace) == [
                "static HTTPRenderer.bar(_:offset:scale:)", "static HTTPRenderer.waterfall(_:limit:)",
                "static HTTPRenderer.render(_:file:title:detailed:slowest:)", "FuzzOracle.check(_:)",
            ]
        )
    }

    @Test("a trap is classified from the signal, named by the runtime's message, keyed by its top frames")
    func trap() throws {
        let failure = try #require(FuzzFailure.from(.signalled(4, stderr: Self.backtrace)))
        #expect(failure.kind == "trap")
        #expect(failure.message == "Swift runtime failure: Range requires lowerBound <= upperBound")
        #expect(
            failure.key(family: "har")
                == "trap|static HTTPRenderer.bar(_:offset:scale:)|static HTTPRenderer.waterfall(_:limit:)|"
                + "static HTTPRenderer.render(_:file:title:detailed:slowest:)"
        )
        // A candidate run without the backtracer has only the signal: it still counts as the same trap.
        let quiet = try #require(FuzzFailure.from(.signalled(4, stderr: "")))
        #expect(failure.matches(quiet))
        let segfault = try #require(FuzzFailure.from(.signalled(11, stderr: "")))
        #expect(segfault.kind == "crash")
        #expect(!failure.matches(segfault))
    }

    @Test("the backtracer's crash line loses its address, so two runs give the same message")
    func addressesDropped() {
        let stderr = "*** Program crashed: Illegal instruction at 0x0000565441ac3cf6 ***\n"
        #expect(FuzzFailure.message(in: stderr) == "Program crashed: Illegal instruction")
    }

    @Test("memory exhaustion, hangs and passing verdicts")
    func otherOutcomes() throws {
        let allocation = "Fatal error: failed to allocate 67108896 bytes of memory with alignment 8\n"
        #expect(try #require(FuzzFailure.from(.signalled(6, stderr: allocation))).kind == "oom")
        #expect(try #require(FuzzFailure.from(.signalled(9, stderr: ""))).kind == "oom")
        #expect(try #require(FuzzFailure.from(.timedOut(stderr: ""))).kind == "hang")
        #expect(FuzzFailure.from(.verdict(WorkerVerdict(kind: "crashReport"))) == nil)
    }

    @Test("property failures are keyed by what differs, not by the input's values")
    func properties() throws {
        let a = try #require(
            FuzzFailure.from(
                .verdict(
                    WorkerVerdict(kind: "crashReport", property: "translate-round-trip", message: "pid differs: 1 → 2")
                )
            )
        )
        let b = try #require(
            FuzzFailure.from(
                .verdict(
                    WorkerVerdict(kind: "crashReport", property: "translate-round-trip", message: "pid differs: 7 → 9")
                )
            )
        )
        #expect(a.key(family: "ips") == b.key(family: "ips"))
        #expect(a.matches(b))
    }

    @Test("finding folder hashes are stable")
    func hash() {
        #expect(FindingStore.hash("trap|a|b|c") == FindingStore.hash("trap|a|b|c"))
        #expect(FindingStore.hash("trap|a|b|c") != FindingStore.hash("trap|a|b|d"))
        #expect(FindingStore.hash("").count == 8)
    }
}
