import Foundation
import Testing

@testable import APMInspectCore

/// Values kept as their JSON text read, compare and encode exactly as the values made at once.
@Suite struct LazyJSONValueTests {
    private static let header = Array(
        #"{"bug_type":"309","timestamp":"2024-02-06 09:50:39.00 +0900","name":"Parcelly","big":18446744073709551615,"nested":{"list":[1,"two",null,true,{"k":"\u00e9\/"}]},"name":"again"}"#
            .utf8
    )

    @Test func strictTextReadsAsTheMaterialisedValue() throws {
        let document = try JSONDocument(bytes: Self.header)
        let lazy = LazyJSONValue(element: document.root)
        guard case .text = lazy.storage else {
            Issue.record("a strict document's value should be kept as text")
            return
        }
        #expect(lazy.wrappedValue == document.root.materialized)
        #expect(lazy == LazyJSONValue(wrappedValue: document.root.materialized))
        #expect(lazy.wrappedValue["nested"]?["list"] != nil)
    }

    @Test func repairedDocumentsKeepTheRepairedValue() throws {
        let document = try JSONDocument(text: #"{"a":[1,2,],"b":"x",}"#)
        #expect(!document.diagnostics.isEmpty)
        let lazy = LazyJSONValue(element: document.root)
        guard case .value(let value) = lazy.storage else {
            Issue.record("a repaired document's value should be made at once")
            return
        }
        #expect(value == document.root.materialized)
    }

    @Test func headersEncodeTheirFieldsAsBefore() throws {
        let container = IPSContainer(bytes: Self.header + Array("\n{\"threads\":[]}".utf8))
        let header = try #require(container.header)
        #expect(header.name == "Parcelly")
        #expect(header["big"] == .number("18446744073709551615"))
        var eager = header
        eager.fields = header.fields
        #expect(eager == header)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(eager) == encoder.encode(header))
        let decoded = try JSONDecoder().decode(IPSHeader.self, from: encoder.encode(header))
        #expect(try encoder.encode(decoded) == encoder.encode(header))
    }
}
