import Testing

@testable import Symbolication

@Suite struct DemanglerTests {
    @Test(arguments: [
        // Swift 5 and later ($s), as the fixtures' symbol table spells it after the Mach-O underscore.
        ("$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_", "closure #1 in ViewController.viewDidLoad()"),
        ("_$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_", "closure #1 in ViewController.viewDidLoad()"),
        // Swift 4.2 ($S) and 4.0/4.1 (_T0; __T0 in a Mach-O symbol table).
        ("$S4Demo5ModelV6updateyySiF", "Model.update(_:)"),
        ("_$S4Demo5ModelV6updateyySiF", "Model.update(_:)"),
        ("_T04Demo6WidgetC4drawyyF", "Widget.draw()"),
        ("__T04Demo6WidgetC4drawyyF", "Widget.draw()"),
        ("$s4Demo6ParserV5parseyS2SKFTf4nn_n", "specialized Parser.parse(_:)"),
        ("$s4Demo14ViewControllerC11viewDidLoadyyFyyYacfU_", "closure #1 in ViewController.viewDidLoad()"),
        // C++ (Itanium), with and without the Mach-O underscore.
        ("_ZNK4demo8geometry9Rectangle4areaEv", "demo::geometry::Rectangle::area() const"),
        (
            "__ZN4demo8geometry11scaled_areaERKNS0_9RectangleEi",
            "demo::geometry::scaled_area(demo::geometry::Rectangle const&, int)"
        ),
    ])
    func namesReadAsApplesReportsPrintThem(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
        #expect(Demangler.isMangled(mangled))
    }

    @Test func theFullFormKeepsModulesAndTypes() {
        #expect(
            Demangler.demangle("$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_", style: .full)
                == "closure #1 () -> () in Demo.ViewController.viewDidLoad() -> ()"
        )
        #expect(Demangler.demangle("_T04Demo6WidgetC4drawyyF", style: .full) == "Demo.Widget.draw() -> ()")
        #expect(
            Demangler.demangle("__ZNK4demo8geometry9Rectangle4areaEv", style: .full)
                == "demo::geometry::Rectangle::area() const"
        )
    }

    @Test(arguments: [
        "main", "compute", "_main", "", "$", "_Z", "_T0", "__mh_execute_header", "$s", "-[NSObject init]",
    ])
    func namesThatAreNotMangledGiveNil(name: String) {
        #expect(Demangler.demangle(name) == nil)
        #expect(Demangler.demangle(name, style: .full) == nil)
    }

    @Test func brokenManglingsGiveNilNotTheInputBack() {
        for name in ["$s4Demo12ImageDecoderC6decode4fromSays5UInt8VG_tKF", "_ZN4demo", "$s9De", "_Z999999999a"] {
            #expect(Demangler.demangle(name) == nil, "\(name)")
            #expect(Demangler.demangle(name, style: .full) == nil, "\(name)")
        }
    }

    @Test func overlongAndHostileNamesAreRefusedWithoutTrapping() {
        let long = "$s" + String(repeating: "4Demo", count: Demangler.maxMangledLength / 5 + 1)
        #expect(Demangler.demangle(long) == nil)
        #expect(!Demangler.isMangled(long))
        // A NUL inside a name would cut it short in C: refused.
        #expect(Demangler.demangle("$s4Demo\u{0}5ModelV") == nil)
        // Deep nesting and repeated substitutions stay within the length bound and return.
        let nested = "_Z1f" + String(repeating: "P", count: 4000) + "i"
        _ = Demangler.demangle(nested)
        let substitutions = "$s4Demo" + String(repeating: "SaySay", count: 1000) + "SiGG"
        _ = Demangler.demangle(substitutions)
        let bytes = (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        _ = Demangler.demangle("$s" + String(decoding: bytes, as: UTF8.self))
        _ = Demangler.demangle("_Z" + String(decoding: bytes, as: UTF8.self))
    }
}
