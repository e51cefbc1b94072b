/// A file path as the file system stores it: bytes, which need not be UTF-8.
///
/// Linux file names are any bytes but `/` and NUL; a Swift `String` made from them replaces invalid sequences
/// with U+FFFD and can no longer name the file. The bytes are kept for every system call, and `display` gives
/// the text shown to people and written to JSON: valid UTF-8 as is, each byte of an invalid sequence as `\xHH`.
public struct RawPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path's bytes, passed unchanged to every system call.
    public var bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The path as text, invalid UTF-8 bytes written `\xHH` (see docs/scan.md).
    package var display: String { Self.escaped(bytes) }

    /// The text people see, as the command prints it.
    public var description: String { display }

    /// True when the bytes are valid UTF-8, so `String` round-trips them.
    package var isUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// This path with `/` and `name` appended.
    package func appending(_ name: [UInt8]) -> RawPath {
        var joined = bytes
        if joined.last != UInt8(ascii: "/") { joined.append(UInt8(ascii: "/")) }
        joined += name
        return RawPath(bytes: joined)
    }

    /// Calls `body` with the path as a NUL-terminated C string, for system calls.
    package func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { chars in
                // A buffer with one element always has a base address.
                guard let base = chars.baseAddress else { return try "".withCString(body) }
                return try body(base)
            }
        }
    }

    /// The last component's bytes.
    package var lastComponent: [UInt8] {
        let trimmed = bytes.last == UInt8(ascii: "/") ? Array(bytes.dropLast()) : bytes
        guard let slash = trimmed.lastIndex(of: UInt8(ascii: "/")) else { return trimmed }
        return Array(trimmed[(slash + 1)...])
    }

    /// A stable order, so sorted output does not depend on the order reports were read in.
    public static func < (lhs: RawPath, rhs: RawPath) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }

    /// `bytes` as text: valid UTF-8 kept, every byte of an invalid sequence written as `\xHH` (uppercase hex).
    package static func escaped(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        out.reserveCapacity(bytes.count + 16)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<min(bytes.count, offset + length)] { out += hex(byte) }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [0x5C, 0x78, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
