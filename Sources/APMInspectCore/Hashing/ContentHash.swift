import ByteAccess

/// The one content hash of this package: 64-bit FNV-1a of the bytes a file's reader read.
///
/// It identifies a JetsamEvent that has no incident id, so that copies of one report (`x.ips` and
/// `x.ips.synced`, or the same file in two folders or archives) count once in `memory-limits`, in `scan`'s
/// inventory and in `report` alike (docs/json-output.md, `contentHash`). It is not a security hash: the backend
/// formats' event ids use ``SHA256Digest``, because an id must not collide on purpose-made input.
package enum ContentHash {
    /// The hash of `bytes`: FNV-1a, 64 bits (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
    package static func of(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withBorrowedBytes { buffer in
            for byte in buffer {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return hash
    }

    /// The hash as JSON and identities spell it: 16 lowercase hexadecimal digits, zero-padded.
    package static func text(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// Reads ``text(_:)``'s spelling back; nil for anything else.
    package static func value(_ text: String) -> UInt64? {
        let isDigits = text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard text.utf8.count == 16, isDigits else { return nil }
        return UInt64(text, radix: 16)
    }
}
