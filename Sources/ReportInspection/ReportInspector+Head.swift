#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension ReportInspector {
    /// The first 8 KiB of a file (what the sniffers look at); nil when it cannot be read.
    static func head(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = 8192
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < size {
                let got = read(fd, base + initialized, size - initialized)
                if got < 0, errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { return }
                initialized += got
            }
        }
        return failed ? nil : bytes
    }
}
