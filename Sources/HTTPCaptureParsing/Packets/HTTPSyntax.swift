import ByteAccess

/// The bits of HTTP/1.x syntax that recognising a start line needs: tokens (methods), the `HTTP/` name, and the
/// methods HTTP/0.9-style lines may carry.
///
/// Each test has a byte form (for lines that are ASCII without CR) and a `Character` form (the reference, for every
/// other line); they answer alike wherever both apply.
enum HTTPSyntax {
    /// The longest method a start line is recognised with: RFC 9110 sets no bound, but a request start found in a
    /// stream after a hole, or told from other bytes, needs one (the longest registered method,
    /// `BASELINE-CONTROL`, has 16 characters).
    static let maxMethodLength = 20

    /// The methods of RFC 9110 §9: a request line without an HTTP version (HTTP/0.9 style) is read as a request only
    /// with one of these, and a body that runs into the next request line gives way to one.
    static let standardMethods = ["OPTIONS", "CONNECT", "DELETE", "PATCH", "TRACE", "POST", "HEAD", "PUT", "GET"]

    /// True for an RFC 9110 §5.6.2 `tchar`: `!#$%&'*+-.^_`|~`, digits and letters.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// True when `bytes` are a method: a token of 1 to ``maxMethodLength`` bytes.
    static func isMethod<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        (1...maxMethodLength).contains(bytes.count) && bytes.allSatisfy(isTokenByte)
    }

    /// ``isMethod(_:)-(Bytes)`` on borrowed bytes.
    static func isMethod(_ bytes: BorrowedBytes) -> Bool {
        (1...maxMethodLength).contains(bytes.count) && bytes.allSatisfy(isTokenByte)
    }

    /// ``isMethod(_:)-(Bytes)`` by `Character`: each one a single token byte.
    static func isMethod(_ word: Substring) -> Bool {
        (1...maxMethodLength).contains(word.count)
            && word.allSatisfy { $0.utf8.count == 1 && $0.utf8.allSatisfy(isTokenByte) }
    }

    /// True when `bytes` start with `HTTP/` in any letter case (a status line written `http/1.1 200 ok`).
    static func startsWithHTTPName(_ bytes: BorrowedBytes) -> Bool {
        guard bytes.count >= 5 else { return false }
        for (k, upper) in "HTTP/".utf8.enumerated() where bytes[k] != upper && bytes[k] != upper | 0x20 {
            return false
        }
        return true
    }

    /// ``startsWithHTTPName(_:)-(BorrowedBytes)`` for a line kept as text: read on its bytes when its first six are
    /// ASCII without CR (then its first five bytes are its first five `Character`s), else by `Character`.
    static func startsWithHTTPName(line: String) -> Bool {
        let byBytes: Bool?? = line.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            for byte in bytes.prefix(6) where byte >= 0x80 || byte == UInt8(ascii: "\r") { return nil }
            guard bytes.count >= 5 else { return false }
            for (k, upper) in "HTTP/".utf8.enumerated() where bytes[k] != upper && bytes[k] != upper | 0x20 {
                return false
            }
            return true
        }
        if let byBytes, let byBytes { return byBytes }
        return startsWithHTTPName(line[...])
    }

    /// ``startsWithHTTPName(_:)-(BorrowedBytes)`` by `Character`.
    static func startsWithHTTPName(_ word: Substring) -> Bool {
        var index = word.startIndex
        for (upper, lower) in zip("HTTP/", "http/") {
            guard index < word.endIndex, word[index] == upper || word[index] == lower else { return false }
            index = word.index(after: index)
        }
        return true
    }

    /// True when `bytes` start a status line's version (`HTTP/1.`, any letter case).
    static func startsStatusLine(_ bytes: BorrowedBytes) -> Bool {
        bytes.count >= 7 && startsWithHTTPName(bytes) && bytes[5] == UInt8(ascii: "1") && bytes[6] == UInt8(ascii: ".")
    }

    /// ``startsStatusLine(_:)-(BorrowedBytes)`` on an array.
    static func startsStatusLine(_ bytes: [UInt8]) -> Bool {
        bytes.withBorrowedBytes { startsStatusLine($0) }
    }
}
