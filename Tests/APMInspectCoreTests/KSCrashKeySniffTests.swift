import PropertyBased
import Testing

@testable import APMInspectCore

/// ``ContentSniffer/mentionsKSCrashKeys(_:)`` looks for its five keys in one pass; it must answer as searching for
/// each key on its own over the whole input does.
@Suite struct KSCrashKeySniffTests {
    /// The search it replaced: one whole-input search per key.
    static func reference(_ bytes: [UInt8]) -> Bool {
        func occurs(_ key: [UInt8]) -> Bool {
            guard bytes.count >= key.count else { return false }
            return (0...(bytes.count - key.count)).contains { Array(bytes[$0..<($0 + key.count)]) == key }
        }
        return ContentSniffer.kscrashKeys.contains(where: occurs) || ContentSniffer.minimalKeys.allSatisfy(occurs)
    }

    /// Pieces of the keys, whole keys, quotes and the letters that start them, so that keys occur, overlap, sit
    /// across the sixteen-byte steps and are cut off at the end.
    private static let pieces: [[UInt8]] =
        (ContentSniffer.kscrashKeys + ContentSniffer.minimalKeys
            + ["\"", "b", "r", "c", "\"crash", "report\"", "_id\"", "\"rep", "x", "  ", "\"b\"", "\\\""].map {
                Array($0.utf8)
            })
    private static let inputs = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...40).map {
        $0.flatMap { $0 }
    }

    @Test func answersAsOneSearchPerKeyDoes() async {
        await propertyCheck(input: Self.inputs) { bytes in
            #expect(ContentSniffer.mentionsKSCrashKeys(bytes) == Self.reference(bytes))
        }
    }

    @Test func keysAtEveryOffset() {
        for key in ContentSniffer.kscrashKeys {
            for offset in 0...40 {
                let bytes = [UInt8](repeating: UInt8(ascii: "x"), count: offset) + key
                #expect(ContentSniffer.mentionsKSCrashKeys(bytes), "\(offset)")
                #expect(!ContentSniffer.mentionsKSCrashKeys(bytes.dropLast().map { $0 }), "cut, \(offset)")
            }
        }
        let both = Array(#"{"report":{},"crash":{}}"#.utf8)
        #expect(ContentSniffer.mentionsKSCrashKeys(both))
        #expect(!ContentSniffer.mentionsKSCrashKeys(Array(#"{"report":{}}"#.utf8)))
        #expect(!ContentSniffer.mentionsKSCrashKeys(Array(#"{"bug_type":"309","crashed":true}"#.utf8)))
    }
}
