/// A string table of a dyld shared cache read in windows: the shared tables run to hundreds of megabytes, and one
/// image's names are a small, mostly contiguous part of them.
struct DyldStringTable {
    /// The table's length in bytes.
    let size: Int
    /// `count` bytes at `offset` of the table, or nil when they cannot be read.
    let read: (_ offset: Int, _ count: Int) -> [UInt8]?

    init(size: Int, read: @escaping (_ offset: Int, _ count: Int) -> [UInt8]?) {
        self.size = max(size, 0)
        self.read = read
    }

    /// The NUL-terminated names at `offsets` (each already checked to lie in the table), at most
    /// ``MachOLimits/maxSymbolNameLength`` bytes each; nil for one that cannot be read.
    ///
    /// Names between the lowest and the highest offset are read as one window when it is at most
    /// ``DyldCacheLimits/maxStringWindow`` long; otherwise each name is read by itself.
    func names(_ offsets: [Int]) -> [ArraySlice<UInt8>?] {
        guard let low = offsets.min(), let high = offsets.max() else { return [] }
        let stop = min(size, high + MachOLimits.maxSymbolNameLength)
        if stop - low <= DyldCacheLimits.maxStringWindow, let window = read(low, stop - low) {
            return offsets.map { offset in
                let start = offset - low
                let limit = min(window.count, start + MachOLimits.maxSymbolNameLength)
                let raw = window[start..<limit]
                return raw[..<(raw.firstIndex(of: 0) ?? limit)]
            }
        }
        return offsets.map { offset in
            let length = min(size - offset, 4096)
            guard let bytes = read(offset, length) else { return nil }
            let raw = bytes[...]
            return raw[..<(raw.firstIndex(of: 0) ?? raw.endIndex)]
        }
    }
}
