extension ContentSniffer {
    /// The first `count` bytes inside a gzip or zlib stream, or nil when `bytes` are not one (or are corrupt
    /// before any output).
    ///
    /// The stream is inflated in small slices until `count` bytes are out, so the answer never depends on how
    /// compressible the start is (a first megabyte of zeros decides nothing) and the work stays bounded: at most
    /// `count` plus one slice's worth (about 260 KB) of output, whatever the ratio.
    package static func inflatedPrefix(of bytes: [UInt8], count: Int) -> [UInt8]? {
        let format = format(of: Array(bytes.prefix(2)))
        guard format == .gzip || format == .zlib, count > 0 else { return nil }
        guard let inflater = try? Inflater() else { return nil }
        var collected: [UInt8] = []
        var start = 0
        while start < bytes.count, collected.count < count {
            let end = min(bytes.count, start + 256)
            guard let (output, ended) = try? inflater.feed(Array(bytes[start..<end])) else { break }
            collected += output.prefix(count - collected.count)
            if ended { break }
            start = end
        }
        return collected.isEmpty ? nil : collected
    }

    /// What a gzip or zlib stream holds (`.tar`, `.json`, `.sqlite` …), judged from its first 64 KB once
    /// inflated; nil when `bytes` are not compressed or do not open.
    package static func compressedContentFormat(of bytes: [UInt8]) -> ContentFormat? {
        inflatedPrefix(of: bytes, count: 64 << 10).map { format(of: $0) }
    }
}
