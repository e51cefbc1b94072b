/// How far one compressed input may expand: an absolute cap, and a ratio to its compressed size.
///
/// A fixed cap alone lets a 1.5 MB bomb cost a gigabyte of memory and seconds of work; the project's sample
/// captures and databases expand 4–8:1, and the floor keeps small, very repetitive files readable.
public struct ExpansionLimit: Sendable, Equatable {
    /// The most output accepted from one input, whatever its size.
    public var maxBytes: Int
    /// The most output per compressed byte past ``floorBytes``: what stops a small bomb.
    public var maxRatio: Int
    /// Output always allowed, whatever the ratio.
    public var floorBytes: Int

    /// A limit of `maxBytes` output, and of `maxRatio` times the input past `floorBytes`.
    public init(maxBytes: Int, maxRatio: Int = 100, floorBytes: Int = 64 << 20) {
        self.maxBytes = maxBytes
        self.maxRatio = maxRatio
        self.floorBytes = floorBytes
    }

    /// The most output accepted for `compressed` input bytes.
    public func bytes(forCompressed compressed: Int) -> Int {
        let (relative, overflow) = max(0, compressed).multipliedReportingOverflow(by: max(1, maxRatio))
        return min(maxBytes, max(floorBytes, overflow ? Int.max : relative))
    }

    /// Which limit a stream that passed ``bytes(forCompressed:)`` ran into, with its value.
    package func describe(compressed: Int) -> String {
        let limit = bytes(forCompressed: compressed)
        if limit < maxBytes {
            let floor = limit == floorBytes ? ", never below \(floorBytes) bytes" : ""
            return "it expands past \(limit) bytes (expansion-ratio limit: \(maxRatio):1 of \(compressed) compressed "
                + "bytes\(floor); a decompression bomb?)"
        }
        return "it expands past \(limit) bytes (size limit)"
    }
}
