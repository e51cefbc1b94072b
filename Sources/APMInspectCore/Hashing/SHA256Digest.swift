import ByteAccess

/// SHA-256 (FIPS 180-4), so an event's id follows from the bytes of the report it came from.
///
/// Written here because the toolchain on Linux has no CryptoKit and the project takes no crypto dependency; it is
/// only used for identity (de-duplication), never for security.
package struct SHA256Digest: Sendable {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    package init() {}

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.finish()
    }

    package mutating func update(_ bytes: some Collection<UInt8>) {
        bytes.withContiguousBorrowedBytes { update(buffer: $0) }
    }

    private mutating func update(buffer: BorrowedBytes) {
        length &+= UInt64(buffer.count)
        var offset = 0
        // Fill a partial block first, then take whole blocks straight from the input.
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            buffer.prefix(take).append(to: &pending)
            offset = take
            if pending.count == 64 {
                let block = pending
                block.withBorrowedBytes { compress($0) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while buffer.count - offset >= 64 {
            compress(buffer.slice(offset..<(offset + 64)))
            offset += 64
        }
        if offset < buffer.count { buffer.slice(from: offset).append(to: &pending) }
    }

    /// The 32-byte digest; the value is spent afterwards.
    package mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        tail.withBorrowedBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                compress(buffer.slice(offset..<(offset + 64)))
                offset += 64
            }
        }
        pending.removeAll()
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in state {
            out.append(UInt8(truncatingIfNeeded: word >> 24))
            out.append(UInt8(truncatingIfNeeded: word >> 16))
            out.append(UInt8(truncatingIfNeeded: word >> 8))
            out.append(UInt8(truncatingIfNeeded: word))
        }
        return out
    }

    /// One 64-byte block through the 64 rounds, the message schedule in scratch space on the stack.
    private mutating func compress(_ block: BorrowedBytes) {
        guard block.count >= 64, state.count >= 8 else { return }
        withScratchElements(of: UInt32.self, count: 64) { w in
            Self.compressBlock(block, schedule: w, state: &state)
        }
    }

    private static func compressBlock(
        _ block: BorrowedBytes,
        schedule w: ScratchElements<UInt32>,
        state: inout [UInt32]
    ) {
        let k = roundConstants
        guard w.count >= 64, k.count >= 64 else { return }
        for index in 0..<16 {
            let base = index &* 4
            w[index] =
                UInt32(block[unchecked: base]) << 24 | UInt32(block[unchecked: base &+ 1]) << 16
                | UInt32(block[unchecked: base &+ 2]) << 8 | UInt32(block[unchecked: base &+ 3])
        }
        for index in 16..<64 {
            let s0 = rotate(w[index &- 15], 7) ^ rotate(w[index &- 15], 18) ^ (w[index &- 15] >> 3)
            let s1 = rotate(w[index &- 2], 17) ^ rotate(w[index &- 2], 19) ^ (w[index &- 2] >> 10)
            w[index] = w[index &- 16] &+ s0 &+ w[index &- 7] &+ s1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 &- count))
    }
}
