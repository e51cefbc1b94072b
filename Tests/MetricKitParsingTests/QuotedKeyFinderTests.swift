import APMInspectCore
import ByteAccess
import PropertyBased
import Testing

@testable import MetricKitParsing

/// The one-pass key finder must find exactly what searching for each quoted key in turn found.
@Suite struct QuotedKeyFinderTests {
    private static let keys = ["cpuMetrics", "cpuTime", "crashDiagnostics", "c"]
    /// Pieces that make keys, near-misses, escaped quotes and values likely, and that cut keys at every point.
    private static let pieces = [
        "\"", "\\\"", ":", " ", "\n", ",", "{", "}", "cpu", "Metrics", "Time", "crash", "Diagnostics", "c", "x",
        "\"cpuMetrics\"", "\"crashDiagnostics\" :", "\"c\":",
    ]
    private static let texts = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...40)

    /// The definition before the finder: for each key, every occurrence of it in quotes, followed by white space
    /// and a colon.
    private static func reference(_ key: String, in text: [UInt8]) -> Bool {
        let pattern = Array("\"\(key)\"".utf8)
        guard text.count >= pattern.count else { return false }
        for start in 0...(text.count - pattern.count) where Array(text[start..<(start + pattern.count)]) == pattern {
            var position = start + pattern.count
            while position < text.count, [0x20, 0x0A, 0x0D, 0x09].contains(text[position]) { position += 1 }
            if position < text.count, text[position] == UInt8(ascii: ":") { return true }
        }
        return false
    }

    @Test func findsWhatAKeyByKeySearchFinds() async {
        let finder = QuotedKeyFinder(Self.keys)
        await propertyCheck(input: Self.texts) { pieces in
            let text = Array(pieces.joined().utf8)
            let found = text.withBorrowedBytes { finder.find(in: $0) }
            #expect(found == Self.keys.map { Self.reference($0, in: text) }, "\(pieces.joined())")
        }
    }

    @Test func keyMustBeFollowedByAColon() {
        let finder = QuotedKeyFinder(["cpuMetrics", "crashDiagnostics"])
        let text = Array(#"{"note": "cpuMetrics", "crashDiagnostics" : [], "cpuMetrics"}"#.utf8)
        #expect(text.withBorrowedBytes { finder.find(in: $0) } == [false, true])
    }

    @Test func aKeyCutByTheEndOfTheBufferIsNotFound() {
        let finder = QuotedKeyFinder(["cpuMetrics"])
        for text in [#"{"cpuMetrics"#, #"{"cpuMetrics""#, #"{"cpuMetrics"  "#, "\""] {
            #expect(Array(text.utf8).withBorrowedBytes { finder.find(in: $0) } == [false], "\(text)")
        }
    }
}
