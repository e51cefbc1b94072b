import Testing

@testable import Symbolication

/// Swift 1–3 manglings, each expected text being what the toolchain's `swift-demangle --simplified` prints for it.
@Suite struct SwiftOldDemanglerTests {
    @Test(arguments: [
        ("_TFC4Demo6Widget4drawfT_T_", "Widget.draw()"),
        ("_TFC4Demo6Widget6renderfT2inCS_4View8animatedSb_T_", "Widget.render(in:animated:)"),
        ("_TFC4Demo6WidgetcfT5titleSS_S0_", "Widget.init(title:)"),
        ("_TFC4Demo6WidgetCfT_S0_", "Widget.__allocating_init()"),
        ("_TFV4Demo5PointCfT1xSd1ySd_S0_", "Point.init(x:y:)"),
        ("_TFC4Demo6WidgetD", "Widget.__deallocating_deinit"),
        ("_TFC4Demo6Widgetd", "Widget.deinit"),
        ("_TFV4Demo5PointD", "Point.deinit"),
        ("_TFC4Demo6Widgetg5titleSS", "Widget.title.getter"),
        ("_TFC4Demo6Widgets5titleSS", "Widget.title.setter"),
        ("_TFC4Demo6WidgetW5titleSS", "Widget.title.didset"),
        ("_TFC4Demo6Widgetg9subscriptFSiSS", "Widget.subscript.getter"),
        ("_TZFV4Demo5Point4zerofT_S0_", "static Point.zero()"),
        ("_TZFV4Demo5Pointoi2eefTS0_S0__Sb", "static Point.== infix(_:_:)"),
        ("_TF4Demo4mainFT_T_", "main()"),
        ("_TFF4Demo4mainFT_T_U_FT_T_", "closure #1 in main()"),
        ("_TFF4Demo4mainFT_T_u0_FT_Sb", "implicit closure #2 in main()"),
        ("_TFFC4Demo6Widget4drawFT_T_L_6helperFT_T_", "helper #1 () in Widget.draw()"),
        (
            "_TFIvC4Demo6Widget5itemsGSaSS_iU_FT_GSaSS_",
            "closure #1 in variable initialization expression of Widget.items"
        ),
        ("_TFCC4Demo6Widget5Inner4stepfT_T_", "Widget.Inner.step()"),
        ("_TFC4Demo6Widget4loadurfxT_", "Widget.load<A>(_:)"),
        ("_TFC4Demo6Widget4pairu0_rfT5firstx6secondq__GVs10Dictionaryxq__", "Widget.pair<A, B>(first:second:)"),
        ("_TTSg5Si___TFC4Demo6Widget4loadurfxT_", "specialized Widget.load<A>(_:)"),
        ("_TTSf4g___TFC4Demo6Widget4drawfT_T_", "specialized Widget.draw()"),
        ("_TToFC4Demo6Widget4drawfT_T_", "@objc Widget.draw()"),
        ("_TTDFC4Demo6Widget4drawfT_T_", "dynamic Widget.draw()"),
        ("_TPA__TFF4Demo4mainFT_T_U_FT_T_", "partial apply for closure #1 in main()"),
        ("_TMaC4Demo6Widget", "type metadata accessor for Widget"),
        ("_TMC4Demo6Widget", "type metadata for Widget"),
        ("_TMnC4Demo6Widget", "nominal type descriptor for Widget"),
        ("_TMLC4Demo6Widget", "lazy cache variable for type metadata for Widget"),
        ("_TWVV4Demo5Point", "value witness table for Point"),
        ("_TtC4Demo6Widget", "Widget"),
        ("_TtGSaGSqC4Demo6Widget__", "[Widget?]"),
        ("_TtGVs10DictionarySSGSaSi__", "[String : [Int]]"),
        ("_TtT5titleSS5countSi_", "(title: String, count: Int)"),
        ("_TtFSiSS", "(_:)"),
        ("_TtP_", "Any"),
        ("_Tv4Demo7counterSi", "counter"),
        ("_TFC4Demo6WidgetP33_0123456789ABCDEF0123456789ABCDEF6secretfT_T_", "Widget.secret()"),
        ("_TIFC4Demo6Widget6renderFT2inCS_4View8animatedSb_T_A0_", "default argument 1 of Widget.render(in:animated:)"),
        ("_TFC4Demo6Widget4drawfT_T_.cold.1", "Widget.draw()"),
        ("_TFC4Demo4CellwL_4ViewfT_Su", "willset of View #1 in Cell"),
        ("_Tturxx", "<A> A"),
        ("_TF3App6rendercT_GSqV3Kit5Model_", "render @convention(c) ()"),
        ("_TiC4Demo6Widget9subscriptFT5indexSi_SS", "Widget.subscript(index:)"),
        ("_TFC3App5StoreL0_4CellT_GSqMO4Demo5Store_", "Cell #2 in Store"),
        ("_TFFV4Demo4View5StorefTSd_Sdm4itemFT_SS", "item.materializeForSet in View.Store(_:)"),
        ("_TtGSqFT_SS_", "(())?"),
    ])
    func namesReadAsSwiftDemangleSimplifiedPrintsThem(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
        // With the Mach-O underscore, as a symbol table or a crash log spells it.
        #expect(Demangler.demangle("_" + mangled) == expected)
        #expect(Demangler.isMangled(mangled))
    }

    @Test(arguments: [
        "_T", "_Tt", "_TF", "_TtB", "_TtC", "_TtT", "_TtTSi", "_TFC4Demo", "_TFC4Demo6Widget4drawfT_",
        "_TtS9_", "_TTSg5Si", "_TTSf___", "_TFC4Demo6Widget4drawfT5title", "_TtC999999999999Demo",
        "_TclGetString", "_TtGSsC5sugar7MyClass__", "_TtGSoSi_", "_TTSf4___TFC3foo3Bar3bazfT_T_",
        "_Tt" + String(repeating: "G", count: 200),
    ])
    func brokenOrForeignNamesGiveNil(name: String) {
        #expect(Demangler.demangle(name) == nil)
    }

    @Test func hostileNamesStopAtTheDepthAndLengthBounds() {
        // Nesting past the depth bound is refused rather than followed.
        let deep: String = "_Tt" + String(repeating: "GSa", count: 500) + "Si" + String(repeating: "_", count: 500)
        #expect(Demangler.demangle(deep) == nil)
        let shallow: String = "_Tt" + String(repeating: "GSa", count: 20) + "Si" + String(repeating: "_", count: 20)
        let brackets: String = String(repeating: "[", count: 20) + "Int" + String(repeating: "]", count: 20)
        #expect(Demangler.demangle(shallow) == brackets)
        // Each reference to a class nested 80 deep prints its chain of names (about 240 bytes): 400 of them would
        // print about 100 KB, past the length bound, so the name is refused.
        var name: String = "_TtT" + String(repeating: "C", count: 81) + "1a1b"
        name += String(repeating: "2cc", count: 80)
        for _ in 0..<4 { name += "T" + String(repeating: "S80_", count: 100) + "_" }
        name += "_"
        #expect(name.utf8.count <= Demangler.maxMangledLength)
        #expect(Demangler.demangle(name) == nil)
        let chain: String = "b" + String(repeating: ".cc", count: 80)
        var fewer: String = "_TtT" + String(repeating: "C", count: 81) + "1a1b"
        fewer += String(repeating: "2cc", count: 80) + "S80__"
        let expected: String = "(" + chain + ", " + chain + ")"
        #expect(Demangler.demangle(fewer) == expected)
        // The same shape with few references prints in full.
        let few = "_TtTCCC1a1b2cc2ccS1_S2__"
        #expect(Demangler.demangle(few) == "(b.cc.cc, b.cc, b.cc.cc)")
    }
}
