import Testing

@testable import APMInspectCore

/// The bug_type table generated from Apple's OSAnalytics log-type table (Scripts/generate-bug-types.py).
@Suite struct BugTypeTableTests {
    @Test(arguments: [
        ("9", "Crash", BugType.Family.crash),
        ("145", "SymptomsIO", .symptoms),
        ("202", "SymptomsCPUUsage", .symptoms),
        ("206", "SymptomsCPUUsageFatal", .symptoms),
        ("231", "CoreHandwriting", .other),
        ("244", "DeviceRecoveryEnvironmentDiagnostics", .other),
        ("298", "Jetsam", .jetsam),
        ("309", "Crash", .crash),
        ("409", "SystemWatchdogCrash", .systemWatchdog),
        ("509", "TerminatingStackshot", .stackshot),
        ("powerlog", "PowerLog", .other),
    ])
    func namesKnownTypes(code: String, name: String, family: BugType.Family) {
        let type = BugType.lookup(code)
        #expect(type.name == name)
        #expect(type.family == family)
        #expect(BugType.isKnown(code))
    }

    @Test func enablesTheHundredAndElevenTypesOfTheTable() {
        #expect(BugType.enabledCodes.count == 111)
        #expect(BugType.enabledCodes.contains("409"))
        // Disabled types are still named when a report carries one.
        #expect(!BugType.enabledCodes.contains("198"))
        #expect(BugType.lookup("198").name == "LegacyJetsam")
    }

    @Test func hasEachCodeOnceAndNoTestingEntries() {
        let codes = BugType.table.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(codes.count == BugType.knownCodes.count)
        #expect(!codes.contains { $0.hasPrefix("T0") })
        #expect(BugType.table.allSatisfy { !$0.name.isEmpty })
    }

    @Test func anUnknownCodeKeepsItsNumberWithADiagnostic() throws {
        let text = #"{"bug_type":"987","timestamp":"2026-01-01 00:00:00.00 +0000"}"# + "\n{}\n"
        let container = IPSContainer(bytes: Array(text.utf8))
        let type = try #require(container.bugType)
        #expect(type.code == "987")
        #expect(type.name == "Unknown")
        #expect(container.header?.bugTypeName == "Unknown")
        #expect(container.diagnostics.map(\.code) == [.ipsUnknownBugType])
    }

    @Test func aKnownCodeHasNoDiagnostic() {
        let text = #"{"bug_type":"409","timestamp":"2026-01-01 00:00:00.00 +0000"}"# + "\n{}\n"
        let container = IPSContainer(bytes: Array(text.utf8))
        #expect(container.header?.bugTypeName == "SystemWatchdogCrash")
        #expect(!container.diagnostics.contains { $0.code == .ipsUnknownBugType })
    }
}
