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
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { return true }
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    static func readExactly(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while offset < count {
                guard let base = buffer.baseAddress else { return true }
                let got = read(fd, base + offset, count - offset)
                if got < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if got == 0 { return false }
                offset += got
            }
            return true
        }
        return complete ? bytes : nil
    }
}
