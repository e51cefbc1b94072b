import APMInspectCore
import Testing

@testable import Symbolication

@Suite struct SymbolicationErrorTests {
    @Test func namesTheOffsetAndTheSectionWhereTheBinaryBroke() {
        let error = SymbolicationError(
            .malformedDWARF,
            "abbreviation 7 is not in the table",
            at: SourceLocation(byteOffset: 4096, keyPath: "__DWARF.__debug_info")
        )
        #expect(error.code.rawValue == "malformed-dwarf")
        #expect(error.description.contains("abbreviation 7 is not in the table"))
        #expect(error.description.contains("__debug_info"))
    }

    @Test func aLocationChainKeepsTheInlinedCalleeApartFromItsCaller() {
        let callee = SymbolicatedLocation(symbol: "clamp", symbolOffset: 4, file: "math.c", line: 12, isInlined: true)
        let caller = SymbolicatedLocation(symbol: "render", symbolOffset: 40, file: "draw.c", line: 88)
        #expect(callee != caller)
        #expect(Set([callee, caller, callee]).count == 2)
    }
}
