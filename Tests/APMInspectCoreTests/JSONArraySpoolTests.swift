import Foundation
import PropertyBased
import Testing

@testable import APMInspectCore

/// A spooled array must be, byte for byte, the array the encoder writes for the same elements in the same order, in
/// both layouts and at any depth, whether the elements are read back a buffer at a time or one by one.
@Suite struct JSONArraySpoolTests {
    /// An element with nested containers, escapes and numbers: the layout of each level shows in the pretty form.
    struct Element: Encodable {
        var name: String
        var values: [Int]
        var nested: [String: [String: Double]]
        var flag: Bool?
    }

    private static let elements = zip(
        Gen.int(in: 0...40).map { String(repeating: "a\"\\\u{1}é/", count: $0) },
        Gen.int(in: -1000...1000).array(of: 0...5),
        Gen.int(in: 0...3).map { n in
            Dictionary(uniqueKeysWithValues: (0..<n).map { ("k\($0)", ["x": Double($0) / 4, "é": -0.0]) })
        },
        Gen.bool
    ).map { t in Element(name: t.0, values: t.1, nested: t.2, flag: t.3 ? true : nil) }.array(of: 0...12)

    @Test func writesTheArrayTheEncoderWrites() async {
        await propertyCheck(
            input: Self.elements,
            Gen.bool,
            Gen.int(in: 0...3),
            Gen.int(in: 16...600),
            Gen.int(in: 0...1000)
        ) { elements, pretty, depth, chunk, seed in
            let encoder = SortedJSONEncoder(pretty: pretty)
            guard let spool = try? JSONArraySpool(encoder: encoder, depth: depth, chunk: chunk) else {
                Issue.record("no spool could be made")
                return
            }
            for element in elements { #expect(spool.append(element)) }
            #expect(spool.count == elements.count)
            // Some order of the elements, from the seed.
            var order = Array(elements.indices)
            var state = UInt64(seed)
            for i in order.indices.reversed() where i > 0 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                order.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
            }
            for taken in [nil, order] {
                var written: [UInt8] = []
                #expect(spool.writeArray(order: taken) { written += $0 })
                let expected = try? encoder.encode(taken.map { $0.map { elements[$0] } } ?? elements, depth: depth)
                #expect(String(decoding: written, as: UTF8.self) == expected)
            }
        }
    }

    /// Emptied, a spool holds only what comes after, and a finished one takes nothing more until it is emptied.
    @Test func emptiedAndFinished() throws {
        let spool = try JSONArraySpool(encoder: SortedJSONEncoder(), depth: 0, chunk: 16)
        for k in 0..<50 { spool.append(["first": k]) }
        #expect(spool.removeAll())
        spool.append(["second": 1])
        spool.append(["second": 2])
        var written: [UInt8] = []
        #expect(spool.writeArray { written += $0 })
        #expect(String(decoding: written, as: UTF8.self) == #"[{"second":1},{"second":2}]"#)
        #expect(!spool.append(["third": 3]))
        #expect(spool.removeAll())
        #expect(spool.append(["third": 3]))
    }

    /// The element hook sees each element's rank and position, and what it hands out is what is written.
    @Test func elementHookReplacesElements() throws {
        let spool = try JSONArraySpool(encoder: SortedJSONEncoder(pretty: true), depth: 1)
        for k in 0..<3 { spool.append(k) }
        var written: [UInt8] = []
        let ok = spool.writeArray(order: [2, 0, 1]) { rank, position, bytes, out in
            out(bytes)
            Array("/\(rank)\(position)".utf8).withBorrowedBytes { out($0) }
        } to: {
            written += $0
        }
        #expect(ok)
        #expect(String(decoding: written, as: UTF8.self) == "[\n    2/02,\n    0/10,\n    1/21\n  ]")
        // An order that is not one of the elements' is refused before anything is written.
        written.removeAll()
        #expect(!spool.writeArray(order: [0, 1]) { written += $0 })
        #expect(written.isEmpty)
    }

    /// The file has no name from the start: nothing is ever seen in the folder it was made in.
    @Test func leavesNothingInItsFolder() throws {
        let folder = try TemporaryTestFolder()
        let spool = try JSONArraySpool(encoder: SortedJSONEncoder(), depth: 0, directory: folder.path, chunk: 16)
        for k in 0..<100 { spool.append([k]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        var written: [UInt8] = []
        #expect(spool.writeArray { written += $0 })
        #expect(written.count > 100 * 3)
    }

    @Test func aFolderThatCannotHoldItIsAnError() {
        #expect(throws: InputError.self) {
            _ = try JSONArraySpool(encoder: SortedJSONEncoder(), depth: 0, directory: "/nonexistent/apm-inspect")
        }
    }
}
