import Testing

@testable import Symbolication

/// C++ names whose substitutions refer to substitutions print twice as long at each step: the demangled form is
/// bounded, and past the bound the mangled name is kept.
@Suite struct DemanglerBoundTests {
    /// A sequence id as the Itanium ABI writes it: `S_`, then `S0_`, `S1_` … in base 36.
    private static func substitution(_ index: Int) -> String {
        guard index > 0 else { return "S_" }
        let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var value = index - 1
        var text = ""
        repeat {
            text = String(digits[value % 36]) + text
            value /= 36
        } while value > 0
        return "S" + text + "_"
    }

    /// `f(a, a<a, a>, a<a<a, a>, a<a, a>>, …)`: each parameter is `a` of the one before twice, so `steps`
    /// parameters print about 13 · 2^steps bytes from 6 + 10 · steps.
    static func doubling(_ steps: Int) -> String {
        var name = "_Z1f1a"
        for step in 0..<steps { name += "1aI" + substitution(2 * step) + substitution(2 * step) + "E" }
        return name
    }

    @Test(.timeLimit(.minutes(1)), arguments: [Demangler.Style.simplified, .full])
    func aNameThatWouldPrintGigabytesKeepsItsManglingWithinTheLimits(style: Demangler.Style) {
        // 302 bytes that print about 3.4 GB (the audit's 278-byte name took 3 s and 450 MB, 322 bytes 70 s).
        let name = Self.doubling(28)
        #expect(name.utf8.count == 302)
        #expect(Demangler.demangle(name, style: style) == nil)
        #expect(Demangler.demangle("_" + name, style: style) == nil)
    }

    @Test func aNameJustPastTheLimitIsKeptAndOneJustUnderIsPrintedWhole() throws {
        // 12 steps print 53,191 bytes: the bound says it may grow past 64 KiB, so it runs in the sandbox, and the
        // runtime's own answer comes back whole, in LLVM's spelling (49,108 bytes without the spaces of `> >`).
        let under = Self.doubling(12)
        #expect(!CXXExpansionBound.isWithin(Array(under.utf8), limit: Demangler.maxDemangledLength))
        let printed = try #require(Demangler.demangle(under))
        let runtime = try #require(RuntimeDemanglers.cxx(Array(under.utf8) + [0]))
        #expect(runtime.utf8.count == 53_191)
        #expect(printed.utf8.count == 49_108)
        #expect(printed.hasPrefix("f(a, a<a, a>, a<a<a, a>, a<a, a>>, "))
        #expect(printed == CXXLLVMSpelling.respelled(runtime, mangled: Array(under.utf8)))
        // 13 steps print about 106 KB.
        #expect(Demangler.demangle(Self.doubling(13)) == nil)
    }

    @Test(arguments: [
        (
            "_ZNSt3__16vectorIiNS_9allocatorIiEEE9push_backERKi",
            "std::__1::vector<int, std::__1::allocator<int>>::push_back(int const&)"
        ),
        ("_ZN4llvm5APInt6setBitEj", "llvm::APInt::setBit(unsigned int)"),
    ])
    func everydayNamesGoStraightToTheRuntime(name: String, expected: String) {
        #expect(CXXExpansionBound.isWithin(Array(name.utf8), limit: Demangler.maxDemangledLength))
        #expect(Demangler.demangle(name) == expected)
    }

    @Test func theBoundCountsEveryReferenceForm() {
        // Four references: S_, S0_, T_ and T0_.
        let bytes = Array("_Z1fIS_S0_T_T0_E".utf8)
        #expect(CXXExpansionBound.isWithin(bytes, limit: bytes.count << 5))
        #expect(!CXXExpansionBound.isWithin(bytes, limit: (bytes.count << 4) - 1))
    }
}
