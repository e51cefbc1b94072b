import APMInspectCore
import Testing

@Suite struct SHA256DigestTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The FIPS 180-4 examples.
    @Test func knownVectors() {
        #expect(
            Self.hex(SHA256Digest.hash([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        )
        #expect(
            Self.hex(SHA256Digest.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(
            Self.hex(SHA256Digest.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        )
        #expect(
            Self.hex(SHA256Digest.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        )
    }

    /// Fed in pieces of every size across block boundaries, the digest is the one-shot digest.
    @Test func piecesGiveTheSameDigest() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = SHA256Digest.hash(bytes)
        for piece in [1, 3, 63, 64, 65, 127, 500] {
            var digest = SHA256Digest()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                digest.update(bytes[offset..<end])
                offset = end
            }
            #expect(digest.finish() == whole, "pieces of \(piece)")
        }
    }
}
