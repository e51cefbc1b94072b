import APMInspectCore
import CrashReportParsing
import HTTPCaptureParsing
import JetsamParsing
import PowerLogReading
import Symbolication
import Testing

/// One error type across the modules: the module names are aliases of `InputError`, every code keeps the raw value
/// the JSON and the command line print, and a code is defined once so importing every module leaves none ambiguous.
@Suite struct InputErrorTests {
    @Test func moduleNamesAreTheOneType() {
        #expect(CrashParseError.self == InputError.self)
        #expect(JetsamParseError.self == InputError.self)
        #expect(PowerLogError.self == InputError.self)
        #expect(HTTPCaptureError.self == InputError.self)
        #expect(SymbolicationError.self == InputError.self)
    }

    /// The raw values are part of the JSON contract (`failure.code`) and of the command's error lines.
    @Test func codesKeepTheirRawValues() {
        let codes: [(InputError.Code, String)] = [
            (.empty, "empty"), (.tooLarge, "too-large"), (.tooDeep, "too-deep"), (.syntax, "syntax"),
            (.wrongKind, "wrong-kind"), (.unreadable, "unreadable"), (.unreadableBody, "unreadable-body"),
            (.notACrashReport, "not-a-crash-report"),
            (.notJetsam, "not-jetsam"), (.noJetsamContent, "no-jetsam-content"),
            (.notSQLite, "not-sqlite"), (.database, "database"), (.decompression, "decompression"),
            (.notPowerLog, "not-powerlog"), (.noInput, "no-input"),
            (.compression, "compression"),
            (.notMachO, "not-mach-o"), (.malformedMachO, "malformed-mach-o"), (.malformedDWARF, "malformed-dwarf"),
            (.limitExceeded, "limit-exceeded"),
        ]
        for (code, raw) in codes {
            #expect(code.rawValue == raw)
            #expect(code.description == raw)
        }
        #expect(Set(codes.map(\.0.rawValue)).count == codes.count)
    }

    @Test func descriptionIsLocationThenMessage() {
        #expect(InputError(.syntax, "not JSON").description == "not JSON")
        let located = InputError(.syntax, "not JSON", at: SourceLocation(line: 3, column: 7))
        #expect(located.description == "\(SourceLocation(line: 3, column: 7)): not JSON")
    }

    /// A catch on one module's name catches every module's error: tell them apart by code.
    @Test func aCatchOnOneNameCatchesEveryModule() {
        func failing() throws { throw JetsamParseError(.notJetsam, "a crash report") }
        do {
            try failing()
            Issue.record("no error")
        } catch let error as CrashParseError {
            #expect(error.code == .notJetsam)
        } catch {
            Issue.record("not caught as CrashParseError: \(error)")
        }
    }
}
