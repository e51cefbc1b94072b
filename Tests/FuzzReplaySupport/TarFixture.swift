/// Writes small tar archives for tests, including hostile ones (traversal, links, bad checksums, truncation).
public enum TarFixture {
    public struct Member {
        public var name: String
        public var data: [UInt8] = []
        public var type: UInt8 = UInt8(ascii: "0")
        public var link: String = ""
        /// Overrides the size written in the header (for bombs and lies).
        public var declaredSize: UInt64?

        public init(
            name: String,
            data: [UInt8] = [],
            type: UInt8 = UInt8(ascii: "0"),
            link: String = "",
            declaredSize: UInt64? = nil
        ) {
            self.name = name
            self.data = data
            self.type = type
            self.link = link
            self.declaredSize = declaredSize
        }
    }

    public static func tar(_ members: [Member], end: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        for member in members {
            out += header(member)
            out += member.data
            out += [UInt8](repeating: 0, count: (512 - member.data.count % 512) % 512)
        }
        if end { out += [UInt8](repeating: 0, count: 1024) }
        return out
    }

    public static func header(_ member: Member) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, _ offset: Int, _ length: Int) {
            for (k, byte) in text.utf8.prefix(length).enumerated() { block[offset + k] = byte }
        }
        func octal(_ value: UInt64, _ offset: Int, _ length: Int) {
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: max(0, length - 1 - digits.count)) + digits, offset, length - 1)
        }
        put(member.name, 0, 100)
        octal(0o644, 100, 8)
        octal(0, 108, 8)
        octal(0, 116, 8)
        octal(member.declaredSize ?? UInt64(member.data.count), 124, 12)
        octal(1_700_000_000, 136, 12)
        block[156] = member.type
        put(member.link, 157, 100)
        put("ustar", 257, 6)
        put("00", 263, 2)
        for k in 148..<156 { block[k] = 0x20 }
        let sum = block.reduce(0) { $0 + Int($1) }
        octal(UInt64(sum), 148, 7)
        block[155] = 0x20
        return block
    }

    /// PAX extended-header records, `<length> <key>=<value>\n`, the length counting the whole record.
    public static func pax(_ fields: KeyValuePairs<String, String>) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in fields {
            let body = " \(key)=\(value)\n".utf8.count
            var length = body + 1
            while String(length).count + body != length { length += 1 }
            out += Array("\(length) \(key)=\(value)\n".utf8)
        }
        return out
    }

    /// gzip-compresses `bytes` with the system zlib.
    public static func gzip(_ bytes: [UInt8]) -> [UInt8] { Compressing.deflate(bytes) }
}
