import FuzzReplaySupport
import Testing

@testable import APMInspectCore
@testable import HTTPCaptureParsing

/// A streamed HAR's transactions keep their vendor fields as elements of the entry's parsed text and write them
/// from it (`KeptJSONMembers`): what they write must be what the values, as `read` makes them, write; and a capture
/// held whole must hold values, not every entry's parsed text.
@Suite struct StreamedVendorFieldsTests {
    /// Vendor values that escape, repeat keys, are not ASCII, or are numbers Swift cannot hold.
    private static let vendorValues = [
        #"{"stack":{"callFrames":[{"functionName":"f","scriptId":"1","url":"https://a.example/app.js","#
            + #""lineNumber":1,"columnNumber":3}]},"type":"script"}"#,
        #"{"b":1,"a":2,"a":3,"\u0061":4,"é":5,"e\u0301":6,"":7}"#,
        #"[-0,1e400,-1e-400,18446744073709551616,1.50,123456789,0,"tab\there","\ud83d\ude00",{},[]]"#,
        #""VeryHigh""#, "12345", "true", "null", #""caf\u00e9 \"q\" \/""#,
    ]

    private static func har(entries: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var text = #"{"log":{"version":"1.2","creator":{"name":"WebInspector","version":"537.36"},"entries":["#
        for i in 0..<entries {
            if i > 0 { text += "," }
            func vendor() -> String { random.pick(vendorValues) }
            text += #"{"_initiator":\#(vendor()),"_priority":\#(vendor()),"_x\u00e9":\#(vendor()),"#
            text += #""startedDateTime":"2024-03-01T10:00:\#(i % 60 < 10 ? "0" : "")\#(i % 60).000Z","time":9,"#
            text += #""cache":{"beforeRequest":\#(vendor())},"#
            text += #""request":{"method":"GET","url":"https://h\#(i % 3).example/\#(i)","httpVersion":"h2","#
            text += #""headers":[],"_r":\#(vendor())},"#
            text += #""response":{"status":\#(random.pick(["200", "\"x\"", "404"])),"headers":[],"_t":\#(vendor()),"#
            text += #""content":{"size":\#(random.pick(["10", "-5", "{\"n\":1}"])),"mimeType":"text/html","_c":1}},"#
            text += #""timings":{"send":1,"wait":2,"receive":3,"_q":\#(vendor()),"connect":\#(vendor())}}"#
        }
        text += "]}}"
        return Array(text.utf8)
    }

    @Test(arguments: [1, 2, 3])
    func streamedTransactionsWriteAsTheirValues(seed: UInt64) throws {
        let bytes = Self.har(entries: 40, seed: seed)
        let reader = HTTPCaptureReader()
        let full = try reader.read(bytes)
        let stream = try reader.readStream(bytes)
        var streamed: [HTTPTransaction] = []
        var elements = 0
        stream.forEachTransaction { transaction in
            for member in transaction.keptExtensions.members.values {
                if case .element = member { elements += 1 }
            }
            #expect(directEncodingMismatches(transaction) == [], "transaction \(transaction.index)")
            streamed.append(transaction)
        }
        // The path under test is taken: the vendor fields of every entry are kept as elements.
        #expect(elements >= 40 * 6)
        #expect(streamed == full.capture.transactions)
        // Each written transaction, from the tape and from the values `read` made, is the same text.
        let encoder = SortedJSONEncoder(pretty: true)
        for (a, b) in zip(streamed, full.capture.transactions) {
            #expect(try encoder.encode(a, depth: 2) == encoder.encode(b, depth: 2))
        }
    }

    @Test func wholeCaptureHoldsValues() throws {
        let stream = try HTTPCaptureReader().readStream(Self.har(entries: 10, seed: 4))
        let whole = stream.whole
        #expect(whole.transactions.count == 10)
        for transaction in whole.transactions {
            #expect(!transaction.extensions.isEmpty)
            for member in transaction.keptExtensions.members.values {
                if case .element = member { Issue.record("transaction \(transaction.index) holds an element") }
            }
        }
    }
}
