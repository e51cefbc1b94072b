import ByteAccess

extension HTTPTransaction {
    /// What a MIME type read on its bytes says about the traffic type.
    enum MIMEVerdict: Equatable {
        /// Not plain ASCII (or an odd shape): the `Character` reading decides.
        case notASCII
        /// The MIME type decides.
        case decided(TrafficType)
        /// The MIME type says nothing: the resource type and the method decide.
        case undecided
    }

    /// ``trafficType(mimeType:resourceType:method:)``'s MIME rules on the bytes of an ASCII MIME type.
    ///
    /// The `Character` reading (lowercase, split at `;`, trim, compare) cost 9,000 instructions a transaction, a
    /// twentieth of building one from a HAR entry. On ASCII without CR the answers are the same: no other ASCII
    /// character joins the next into one `Character`, so equality, prefixes and suffixes are those of the bytes. A
    /// MIME type that starts with `;` is left to the `Character` reading, whose split drops the empty piece.
    static func mimeVerdict(_ mime: BorrowedBytes, method: String) -> MIMEVerdict {
        var cut = mime.count
        for (k, byte) in mime.enumerated() {
            if byte >= 0x80 || byte == UInt8(ascii: "\r") { return .notASCII }
            if byte == UInt8(ascii: ";") && cut == mime.count { cut = k }
        }
        if cut == 0 && !mime.isEmpty { return .notASCII }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        }
        var lower = 0
        var upper = cut
        while lower < upper, isSpace(mime[unchecked: lower]) { lower += 1 }
        while upper > lower, isSpace(mime[unchecked: upper - 1]) { upper -= 1 }
        let length = upper - lower
        return withScratchElements(of: UInt8.self, count: length) { buffer in
            for k in 0..<length {
                let byte = mime[unchecked: lower + k]
                buffer[k] = byte &- 0x41 < 26 ? byte | 0x20 : byte
            }
            return verdict(essence: buffer.borrowedBytes(count: length), method: method)
        }
    }

    /// The rules of ``trafficType(mimeType:resourceType:method:)`` on a lowercased, trimmed essence.
    private static func verdict(essence e: BorrowedBytes, method: String) -> MIMEVerdict {
        if e.equals("text/html") || e.equals("application/xhtml+xml") || e.equals("text/css")
            || e.contains("javascript") || e.equals("text/ecmascript") || e.equals("application/wasm")
        {
            return .decided(.web)
        }
        if e.hasPrefix("image/") || e.hasPrefix("video/") || e.hasPrefix("audio/") || e.hasPrefix("font/")
            || e.contains("font-woff") || e.equals("application/vnd.apple.mpegurl")
            || e.equals("application/x-mpegurl") || e.equals("application/dash+xml")
        {
            return .decided(.resource)
        }
        if e.contains("json") || e.hasSuffix("xml") || e.contains("protobuf") || e.contains("grpc")
            || e.equals("application/x-www-form-urlencoded") || e.equals("multipart/form-data")
            || e.equals("text/plain") && method != "GET"
        {
            return .decided(.api)
        }
        return .undecided
    }
}
