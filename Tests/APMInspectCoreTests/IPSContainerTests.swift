import Testing

@testable import APMInspectCore

@Suite struct IPSContainerTests {
    @Test func splitsAtTheFirstNewlineEvenWithBracesInHeaderStrings() throws {
        let text =
            #"{"app_name":"x{cte\"st}","bug_type":"309","timestamp":"2022-03-01 10:00:00.00 +0100"}"#
            + "\n{\n  \"a\" : 1\n}\n"
        let container = IPSContainer(bytes: Array(text.utf8))
        let header = try #require(container.header)
        #expect(header.name == "x{cte\"st}")
        #expect(header.bugType == "309")
        #expect(container.bugType?.family == .crash)
        #expect(container.bodyKind == .json)
        #expect(container.bodyOrigin.line == 2)
        #expect(header.timestamp?.iso8601 == "2022-03-01T10:00:00.00+01:00")
    }

    @Test func repairsAHeaderCutAtTheFront() {
        let text =
            #"timestamp":"2016-07-25 19:49:19.19 -0400","bug_type":"298","os_version":"iPhone OS 9.3.3 (13G34)"}"#
            + "\n{}\n"
        let container = IPSContainer(bytes: Array(text.utf8))
        #expect(container.header?.bugType == "298")
        #expect(container.header?.osVersion == "iPhone OS 9.3.3 (13G34)")
        #expect(container.diagnostics.map(\.code).contains(.ipsHeaderCutAtFront))
    }

    @Test func joinsAHeaderWrappedOverLines() {
        let text =
            "{\"bug_type\":\"298\",\"timestamp\":\"2020-01-01 00:00:00.00 +0000\",\n\"os_version\":\"iPhone OS 14.2\n(18B5061e)\"}\n{\"product\" : \"iPhone12,1\"}\n"
        let container = IPSContainer(bytes: Array(text.utf8))
        #expect(container.header?.osVersion == "iPhone OS 14.2 (18B5061e)")
        #expect(container.bodyOrigin.line == 4)
        #expect(container.diagnostics.map(\.code).contains(.ipsHeaderWrapped))
    }

    @Test func bodyWithoutHeader() {
        let container = IPSContainer(bytes: Array("\u{FEFF}\n{\n \"product\" : \"iPhone7,2\"\n}".utf8))
        #expect(container.header == nil)
        #expect(container.bodyKind == .json)
        #expect(container.bodyOrigin.line == 2)
    }

    @Test func textBodyAndEmptyBody() {
        let text = IPSContainer(bytes: Array("{\"bug_type\":\"109\"}\nIncident Identifier: X\n".utf8))
        #expect(text.bodyKind == .text)
        let empty = IPSContainer(bytes: Array("{\"bug_type\":\"298\"}\n  \n".utf8))
        #expect(empty.bodyKind == .empty)
    }

    @Test(arguments: [
        ("298", "Jetsam", BugType.Family.jetsam), ("211", "CoreAnalytics", .analytics), ("151", "ForceReset", .panic),
        ("210", "Panic", .panic), ("288", "Stackshot", .stackshot), ("409", "SystemWatchdogCrash", .systemWatchdog),
        ("309", "Crash", .crash), ("12345", "Unknown", .other),
    ])
    func bugTypeRegistry(code: String, name: String, family: BugType.Family) {
        let entry = BugType.lookup(code)
        #expect(entry.name == name)
        #expect(entry.family == family)
    }
}
