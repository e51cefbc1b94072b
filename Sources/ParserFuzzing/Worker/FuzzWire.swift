import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The framing between supervisor and worker over pipes: a little-endian 32-bit length, then the payload.
enum FuzzWire {
    /// The largest frame accepted: inputs are capped well below it.
    static let maxFrame = 1 << 30

    /// Writes one frame; false when the pipe is closed.
    static func writeFrame(_ fd: Int32, _ payload: [UInt8]) -> Bool {
        let count = UInt32(truncatingIfNeeded: payload.count)
        let header: [UInt8] = (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * UInt32($0))) }
        return writeAll(fd, header) && writeAll(fd, payload)
    }

    /// Reads one frame; nil at end of input or on a malformed length.
    static func readFrame(_ fd: Int32) -> [UInt8]? {
        guard let header = readExactly(fd, 4) else { return nil }
        let count = header.reversed().reduce(0) { $0 << 8 | Int($1) }
        guard count <= maxFrame else { return nil }
        return readExactly(fd, count)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withBorrowedBytes { $0.writeAll { start, count, _ in write(fd, start, count) } }
    }

    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes.fillBytes(at: offset, count: count - offset) { read(fd, $0, $1) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            offset += got
        }
        return bytes
    }
}
