import APMInspectCore

/// The id of one event: a UUID derived from the digest of the report's bytes and the event's place among the
/// events read from it, so sending the same file twice gives the same ids and a backend can drop the duplicate.
///
/// RFC 9562 version 8 (implementation-specific) layout: the first 16 bytes of SHA-256(digest ‖ ordinal), with the
/// version nibble set to 8 and the variant bits to `10`.
public struct EventIdentity: Sendable, Equatable, Hashable {
    /// The 16 identity bytes: the same report always gives the same event id.
    public let bytes: [UInt8]

    /// The id of the `ordinal`th incident of the file whose SHA-256 is `contentDigest`.
    package init(contentDigest: [UInt8], ordinal: Int) {
        var hasher = SHA256Digest()
        hasher.update(contentDigest)
        let index = UInt64(clamping: max(0, ordinal))
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: index >> UInt64(56 - 8 * $0)) })
        var uuid = Array(hasher.finish().prefix(16))
        uuid[6] = (uuid[6] & 0x0F) | 0x80
        uuid[8] = (uuid[8] & 0x3F) | 0x80
        bytes = uuid
    }

    /// 32 lower-case hex digits: the form Sentry documents for `event_id`.
    public var hex: String { Self.hex(bytes) }

    /// The 8-4-4-4-12 form, for attributes that expect a UUID as people write it (`app.crash.id`).
    public var dashed: String { Self.dashed(hex) }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Inserts the dashes of a UUID into 32 hex digits; other text is returned as it is.
    package static func dashed(_ hex: String) -> String {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 32 else { return hex }
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in utf8.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append(0x2D) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
