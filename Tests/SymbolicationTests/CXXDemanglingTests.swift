import Testing

@testable import Symbolication

/// C++ names as llvm-cxxfilt 15 and later print them (Apple's toolchain): each expected text is LLVM's answer for
/// the name (checked with the Swift toolchain's `llvm-nm -C`, LLVM 21), so a case fails when the respelling of the
/// C++ runtime's answer drifts from LLVM's.
@Suite struct CXXDemanglingTests {
    @Test(arguments: [
        // Closing brackets.
        ("_ZN4demo5stackISt6vectorIiSaIiEEE4pushEv", "demo::stack<std::vector<int, std::allocator<int>>>::push()"),
        (
            "_ZN4demo3mapISt4pairIiiES1_IS1_IiiEiEE4findERKS2_",
            "demo::map<std::pair<int, int>, std::pair<std::pair<int, int>, int>>::find(std::pair<int, int> const&)"
        ),
        // Lambdas and unnamed types: LLVM numbers them from the discriminator.
        ("_ZZN4demo6widget4drawEvENKUliE_clEi", "demo::widget::draw()::'lambda'(int)::operator()(int) const"),
        ("_ZZN4demo6widget4drawEvENKUliE0_clEi", "demo::widget::draw()::'lambda0'(int)::operator()(int) const"),
        ("_ZZN4demo6widget4drawEvENKUlvE1_clEv", "demo::widget::draw()::'lambda1'()::operator()() const"),
        ("_ZN4demo6widgetUt_E", "demo::widget::'unnamed'"),
        ("_ZN4demo6widgetUt0_E", "demo::widget::'unnamed0'"),
        // The standard abbreviations, spelled out only as the class of their own constructor or destructor.
        ("_ZN4demo5parseERKSs", "demo::parse(std::string const&)"),
        (
            "_ZNSsC1ERKSs",
            "std::basic_string<char, std::char_traits<char>, std::allocator<char>>::basic_string(std::string const&)"
        ),
        ("_ZNSsD2Ev", "std::basic_string<char, std::char_traits<char>, std::allocator<char>>::~basic_string()"),
        ("_ZN4demo4dumpERSo", "demo::dump(std::ostream&)"),
        ("_ZN4demo4readERSi", "demo::read(std::istream&)"),
        ("_ZN4demo4pipeERSd", "demo::pipe(std::iostream&)"),
        // The same class built from template parameters stays spelled out.
        (
            "_ZN4demo7convertIcSt11char_traitsIcEEERSt13basic_ostreamIT_T0_ES6_",
            "std::basic_ostream<char, std::char_traits<char>>& demo::convert<char, std::char_traits<char>>"
                + "(std::basic_ostream<char, std::char_traits<char>>)"
        ),
        // Operators with template arguments, nullptr_t, conversion operators, rvalue references, packs.
        (
            "_ZN4demolsINS_5pointEEERSoS2_RKT_",
            "std::ostream& demo::operator<<<demo::point>(std::ostream&, demo::point const&)"
        ),
        (
            "_ZN4demoltINS_5pointEEEbRKT_S4_",
            "bool demo::operator<<demo::point>(demo::point const&, demo::point const&)"
        ),
        ("_ZN4demo5resetEDn", "demo::reset(std::nullptr_t)"),
        ("_ZNK4demo6widgetcvbEv", "demo::widget::operator bool() const"),
        ("_ZN4demo6widgetC2EOS0_", "demo::widget::widget(demo::widget&&)"),
        (
            "_ZN4demo4sizeIJiicEEEmDpRKT_",
            "unsigned long demo::size<int, int, char>(int const&, int const&, char const&)"
        ),
        ("_ZN12_GLOBAL__N_16helper3runEv", "(anonymous namespace)::helper::run()"),
        ("_ZThn8_N4demo6widget4drawEv", "non-virtual thunk to demo::widget::draw()"),
        // Clone suffixes, with the Mach-O underscore too.
        ("_ZN4demo6widget4drawEv.cold", "demo::widget::draw() (.cold)"),
        ("__ZN4demo6widget4drawEv.isra.0.cold", "demo::widget::draw() (.isra.0.cold)"),
        // Blocks' invocation functions: the number and any suffix after the `.` are not printed.
        ("___ZN4demo6widget4drawEv_block_invoke", "invocation function for block in demo::widget::draw()"),
        ("___ZN4demo6widget4drawEv_block_invoke_2", "invocation function for block in demo::widget::draw()"),
        ("____ZN4demo6widget4drawEv_block_invoke_2", "invocation function for block in demo::widget::draw()"),
        ("___ZN4demo6widget4drawEv_block_invoke.cold.1", "invocation function for block in demo::widget::draw()"),
        ("___Z3fooi_block_invoke12", "invocation function for block in foo(int)"),
    ])
    func namesReadAsLLVMPrintsThem(mangled: String, expected: String) {
        #expect(Demangler.demangle(mangled) == expected)
        #expect(Demangler.demangle(mangled, style: .full) == expected)
        #expect(Demangler.isMangled(mangled))
    }

    /// What llvm-cxxfilt keeps as it is: transaction clones (LLVM does not read them), a block suffix without its
    /// number, a C function's blocks (no C++ encoding to read).
    @Test(arguments: [
        "_ZGTtN4demo6widget4drawEv", "___ZN4demo6widget4drawEv_block_invoke_",
        "___ZN4demo6widget4drawEv_block_invoke_x",
        "___Z_block_invoke", "__main_block_invoke", "__main_block_invoke_2", "___main_block_invoke",
    ])
    func namesLLVMKeepsStayMangled(name: String) {
        #expect(Demangler.demangle(name) == nil)
    }

    @Test func theRespellingTakesHostileTextInLinearPassesAndNeverGrowsIt() {
        // Unbalanced and deeply nested closures, and long runs of closing brackets.
        let nested: String = String(repeating: "{lambda(", count: 5000) + String(repeating: ")#1}", count: 5000)
        let respelled = CXXLLVMSpelling.respelled(nested, mangled: [])
        let expected: String = String(repeating: "'lambda'(", count: 5000) + String(repeating: ")", count: 5000)
        #expect(respelled == expected)
        let angles: String = "f<" + String(repeating: "a<", count: 4000) + String(repeating: "> ", count: 4000)
        let addresses: String = String(repeating: "&(", count: 3000) + String(repeating: ")>", count: 3000)
        let texts: [String] = [
            String(repeating: "{lambda(", count: 3000), String(repeating: ")#1}", count: 3000),
            angles,
            addresses, "{lambda()#0}",
            "{lambda()#99999999999999}", "{unnamed type#}", "operator< <", "&(", "",
        ]
        for text in texts {
            #expect(CXXLLVMSpelling.respelled(text, mangled: Array("SsSoSiSd".utf8)).utf8.count <= text.utf8.count)
        }
        #expect(CXXLLVMSpelling.respelled("a<b<c> > >", mangled: []) == "a<b<c>>>")
        #expect(CXXLLVMSpelling.respelled("{lambda()#0}", mangled: []) == "{lambda()#0}")
    }
}
