import Foundation
import Testing

@testable import ParserFuzzing

/// Text files of mangled names reach both demanglers, and their answers are checked.
@Suite("fuzz: symbol readers")
struct FuzzSymbolReadersTests {
    static let names = """
        $s4Demo14ViewControllerC11viewDidLoadyyFyycfU_
        $s4Demo5clamp_3min3maxxx_xxtSLRzlF
        _ZNSt6vectorIN4demo5FrameESaIS1_EE9push_backERKS1_
        __ZZN4demo8Renderer4drawEvENKUlRKiE_clES2_

        not a mangled name
        """

    @Test("a text file of mangled names goes to both demanglers and passes")
    func nameListReachesBothDemanglers() throws {
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        let verdict = oracle.check(Array(Self.names.utf8))
        #expect(verdict.kind == FuzzOracle.namesKind)
        #expect(verdict.property == nil, "\(verdict.message ?? "")")
        #expect(verdict.readers == ["cxx-demangler", "swift-demangler"])
        // Prose with one mangled word in many lines is not a name list.
        #expect(DemanglerProbe.nameList(Array("one\ntwo\n$s4Demo1fyyF\nthree\n".utf8)) == nil)
        #expect(FuzzCorpus.label(of: Array(Self.names.utf8)) == "mangled-names")
    }

    @Test("a demangled name past the cut is a finding")
    func aDemangledNamePastTheCutIsAFinding() {
        // A name whose answer is long but legal stays within the cut plus its marker.
        let probe = DemanglerProbe(["_ZN4demo6detail5ClampIiE5applyERKiS4_"])
        #expect(probe.problems.isEmpty)
        #expect(probe.transcript.count == 2)
        #expect(probe.transcript.allSatisfy { $0.contains("demo::detail::Clamp<int>::apply") })
    }
}
