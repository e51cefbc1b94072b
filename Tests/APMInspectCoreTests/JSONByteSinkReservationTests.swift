import ByteAccess
import Testing

@testable import APMInspectCore

/// The sink's one-reservation writers (a pretty key, a line break with its indent, a quoted string, a compact key)
/// must write exactly what they reserve: each is run at every fill level of a small buffer, where a writer that
/// reserved too little would lose a piece or, with a drain, hand out a buffer at the wrong place.
@Suite struct JSONByteSinkReservationTests {
    @Test func writersStayInsideTheirReservationAtEveryFillLevel() {
        for fill in 0...72 {
            for indent in [0, 1, 2, 7, 30] {
                for first in [true, false] {
                    let sink = JSONByteSink(capacity: 16)
                    var expected = String(repeating: "x", count: fill)
                    sink.append(repeating: UInt8(ascii: "x"), count: fill)

                    sink.append(prettyKey: "connectionID", first: first, indent: indent)
                    expected += (first ? "\n" : ",\n") + String(repeating: " ", count: indent) + "\"connectionID\" : "

                    sink.append(lineBreakIndentedBy: indent, comma: !first)
                    expected += (first ? "" : ",") + "\n" + String(repeating: " ", count: indent)

                    Array("value".utf8).withBorrowedBytes { sink.append(quoted: $0) }
                    expected += "\"value\""

                    sink.append(key: "k", first: first)
                    expected += (first ? "" : ",") + "\"k\":"

                    #expect(sink.string == expected, "fill \(fill), indent \(indent), first \(first)")
                }
            }
        }
    }
}
