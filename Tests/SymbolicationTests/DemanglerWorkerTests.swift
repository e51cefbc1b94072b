import CDemangleSandbox
import Testing

@testable import Symbolication

/// The Swift runtime's demangler aborts on some malformed names; it runs in a worker process, so such a name costs
/// itself and a new worker, never the process reading it.
@Suite(.serialized) struct DemanglerWorkerTests {
    /// Found by FuzzSwiftDemangle on main (Fuzz/FailCases/FuzzSwiftDemangle/node-printer-abort): the runtime's node
    /// printer reaches its "unreachable" abort on this tree.
    static let aborting = "$sRvs"
    static let closure = "$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_"

    /// The demanglers are linked by name: a `--static-swift-stdlib` binary exports no symbol for `dlsym` to find.
    ///
    /// There every Swift name stayed mangled until the entry points were linked by name. The tests run a shared build, where `dlsym`
    /// would find them too: what this checks is that the linked references resolve, which is what a static build
    /// relies on.
    @Test func theRuntimeDemanglersAreLinkedByNameNotOnlyFoundByDlsym() {
        #expect(apm_linked_swift_demangle() != nil)
        #expect(apm_linked_backtrace_demangle() != nil)
        #expect(Demangler.demangle(Self.closure, style: .full) != nil)
    }

    @Test(arguments: [Demangler.Style.simplified, .full])
    func aNameThatAbortsTheRuntimeDemanglerIsKeptMangled(style: Demangler.Style) {
        let before = RuntimeDemanglers.workerForks
        #expect(Demangler.demangle(Self.aborting, style: style) == nil)
        #expect(Demangler.demangle("_" + Self.aborting, style: style) == nil)
        // The next name is served by a new worker, and demangles as it always did.
        #expect(Demangler.demangle(Self.closure, style: .simplified) == "closure #1 in ViewController.viewDidLoad()")
        #expect(RuntimeDemanglers.workerForks > before)
    }

    @Test func oneWorkerServesManyNames() {
        _ = Demangler.demangle(Self.closure)
        let before = RuntimeDemanglers.workerForks
        for index in 0..<2_000 {
            let type = "ViewController\(index)"
            let name = "$s4Demo\(type.utf8.count)\(type)C11viewDidLoadyyFyycfU_"
            #expect(Demangler.demangle(name) == "closure #1 in \(type).viewDidLoad()", "\(name)")
        }
        #expect(RuntimeDemanglers.workerForks == before)
    }

    @Test func cxxNamesStillDemangle() {
        #expect(Demangler.demangle("_ZNK4demo8geometry9Rectangle4areaEv") == "demo::geometry::Rectangle::area() const")
    }
}
