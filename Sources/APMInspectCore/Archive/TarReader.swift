/// Reads tar archives (optionally gzip-compressed) as a stream of members, safely.
///
/// Hostile archives are expected: member paths that climb out (`../`) or are absolute are reported and skipped,
/// links are reported and never followed, the total decompressed size, the number of members and the size of one
/// member held in memory are bounded, and a truncated archive yields the members before the cut plus a diagnostic.
/// Nothing is written to disk.
public struct TarReader: Sendable {
    /// Limits for one archive.
    public struct Options: Sendable, Equatable {
        public var maxTotalBytes: UInt64
        public var maxEntries: Int
        /// Members larger than this are reported with ``TarEntry/skippedForSize`` and no data.
        public var maxEntryBytes: UInt64

        public init(maxTotalBytes: UInt64 = 16 << 30, maxEntries: Int = 1_000_000, maxEntryBytes: UInt64 = 512 << 20) {
            self.maxTotalBytes = maxTotalBytes
            self.maxEntries = maxEntries
            self.maxEntryBytes = maxEntryBytes
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// True when `bytes` start like a tar archive (the `ustar` magic of the first header).
    public static func isTar(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 262 else { return false }
        return prefix[257] == UInt8(ascii: "u") && prefix[258] == UInt8(ascii: "s") && prefix[259] == UInt8(ascii: "t")
            && prefix[260] == UInt8(ascii: "a") && prefix[261] == UInt8(ascii: "r")
    }

    /// Reads the archive at `path` (plain or gzip-compressed), calling `body` for each member in order.
    ///
    /// - Returns: Findings: skipped members and why, truncation, limits reached.
    /// - Throws: ``InputError`` when the file cannot be read or is not an archive at all; `body`'s errors pass
    ///   through.
    public func read(
        fileAt path: String,
        _ body: (TarEntry) throws -> Void
    ) throws -> [Diagnostic] {
        let source = try ByteSource(path: path)
        var state = ParserState(options: options)
        try source.stream { chunk in try state.feed(chunk, body) }
        state.finish(truncatedStream: source.truncated)
        return state.diagnostics
    }

    /// Reads an archive already in memory (plain or gzip-compressed).
    public func read(bytes: [UInt8], _ body: (TarEntry) throws -> Void) throws -> [Diagnostic] {
        var state = ParserState(options: options)
        var truncated = false
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            let result = try Inflate.decompress(bytes, maxOutputBytes: Int(clamping: options.maxTotalBytes))
            truncated = result.isTruncated
            try state.feed(result.bytes, body)
        } else {
            try state.feed(bytes, body)
        }
        state.finish(truncatedStream: truncated)
        return state.diagnostics
    }
}

/// Incremental tar parsing over chunks of the (decompressed) stream.
private struct ParserState {
    let options: TarReader.Options
    var diagnostics: [Diagnostic] = []
    private var pending: [UInt8] = []
    private var total: UInt64 = 0
    private var entries = 0
    private var current: (header: Header, remaining: UInt64, padding: Int, data: [UInt8], keep: Bool)?
    private var skipBytes = 0
    private var longName: String?
    private var ended = false
    private var stopped = false

    struct Header {
        var name: String
        var size: UInt64
        var type: UInt8
        var link: String
        var offset: UInt64
    }

    init(options: TarReader.Options) {
        self.options = options
    }

    mutating func feed(_ chunk: [UInt8], _ body: (TarEntry) throws -> Void) throws {
        guard !ended, !stopped else { return }
        total += UInt64(chunk.count)
        if total > options.maxTotalBytes {
            stop("the archive expands to more than \(options.maxTotalBytes) bytes; stopped reading there")
            return
        }
        pending.append(contentsOf: chunk)
        var position = 0
        while !ended && !stopped {
            if skipBytes > 0 {
                let step = min(skipBytes, pending.count - position)
                position += step
                skipBytes -= step
                if skipBytes > 0 { break }
            }
            if var entry = current {
                let available = pending.count - position
                let take = Int(min(UInt64(available), entry.remaining))
                if entry.keep { entry.data.append(contentsOf: pending[position..<position + take]) }
                position += take
                entry.remaining -= UInt64(take)
                current = entry
                if entry.remaining > 0 { break }
                current = nil
                skipBytes = entry.padding
                try emit(entry.header, data: entry.data, kept: entry.keep, body)
                continue
            }
            guard pending.count - position >= 512 else { break }
            let block = Array(pending[position..<position + 512])
            position += 512
            if block.allSatisfy({ $0 == 0 }) {
                ended = true
                break
            }
            guard let header = parseHeader(block, offset: total - UInt64(pending.count - position) - 512) else {
                stop(
                    "a member header is damaged (bad checksum) at byte \(total - UInt64(pending.count - position) - 512)"
                )
                break
            }
            entries += 1
            if entries > options.maxEntries {
                stop("more than \(options.maxEntries) members; stopped reading there")
                break
            }
            let padding = Int((512 - header.size % 512) % 512)
            let isData = header.type == UInt8(ascii: "0") || header.type == 0 || header.type == UInt8(ascii: "7")
            let isLongName = header.type == UInt8(ascii: "L")
            let keep = (isData && header.size <= options.maxEntryBytes) || (isLongName && header.size < 65_536)
            current = (header, header.size, padding, [], keep)
            if header.size == 0 {
                current = nil
                try emit(header, data: [], kept: keep, body)
            }
        }
        pending.removeFirst(position)
    }

    private mutating func emit(_ header: Header, data: [UInt8], kept: Bool, _ body: (TarEntry) throws -> Void) throws {
        if header.type == UInt8(ascii: "L") {
            longName = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
            return
        }
        if header.type == UInt8(ascii: "x") || header.type == UInt8(ascii: "g") {
            if let path = paxPath(data) { longName = path }
            return
        }
        let rawName = longName ?? header.name
        longName = nil
        guard let path = Self.safePath(rawName) else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "skipped member '\(rawName)': its path is absolute or climbs out of the archive",
                    at: SourceLocation(byteOffset: Int(clamping: header.offset))
                )
            )
            return
        }
        let kind: TarEntry.Kind
        switch header.type {
        case UInt8(ascii: "0"), 0, UInt8(ascii: "7"): kind = .file
        case UInt8(ascii: "5"): kind = .directory
        case UInt8(ascii: "2"): kind = .symbolicLink(target: header.link)
        case UInt8(ascii: "1"): kind = .hardLink(target: header.link)
        default: kind = .other(header.type)
        }
        switch kind {
        case .symbolicLink, .hardLink:
            diagnostics.append(
                Diagnostic(
                    .note,
                    "link '\(path)' → '\(header.link)' not followed",
                    at: SourceLocation(byteOffset: Int(clamping: header.offset))
                )
            )
        default:
            break
        }
        let skipped = kind == .file && !kept
        if skipped {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "member '\(path)' is \(header.size) bytes, over the \(options.maxEntryBytes)-byte limit; skipped",
                    at: SourceLocation(byteOffset: Int(clamping: header.offset))
                )
            )
        }
        try body(
            TarEntry(
                path: path,
                kind: kind,
                size: header.size,
                data: kind == .file ? data : [],
                skippedForSize: skipped
            )
        )
    }

    mutating func finish(truncatedStream: Bool) {
        if current != nil || truncatedStream || (!ended && !stopped && !pending.isEmpty) {
            diagnostics.append(
                Diagnostic(.warning, "the archive is truncated: members after byte \(total) are missing", at: nil)
            )
        }
    }

    private mutating func stop(_ message: String) {
        stopped = true
        diagnostics.append(Diagnostic(.warning, message, at: nil))
    }

    /// `path=…` from a PAX extended header.
    private func paxPath(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        for record in text.split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let field = record[record.index(after: space)...]
            if field.hasPrefix("path=") { return String(field.dropFirst(5)) }
        }
        return nil
    }

    private func parseHeader(_ block: [UInt8], offset: UInt64) -> Header? {
        func text(_ start: Int, _ length: Int) -> String {
            String(decoding: block[start..<start + length].prefix { $0 != 0 }, as: UTF8.self)
        }
        func octal(_ start: Int, _ length: Int) -> UInt64? {
            let field = block[start..<start + length]
            if let first = field.first, first & 0x80 != 0 {
                // GNU base-256 for sizes over 8 GiB.
                return field.dropFirst().reduce(UInt64(first & 0x7F)) { ($0 << 8) | UInt64($1) }
            }
            let digits = field.prefix { $0 != 0 && $0 != 0x20 }.drop { $0 == 0x20 }
            if digits.isEmpty { return 0 }
            return UInt64(String(decoding: digits, as: UTF8.self), radix: 8)
        }
        guard let checksum = octal(148, 8) else { return nil }
        var sum: UInt64 = 0
        for (i, byte) in block.enumerated() { sum += (148..<156).contains(i) ? 0x20 : UInt64(byte) }
        guard sum == checksum, let size = octal(124, 12) else { return nil }
        var name = text(0, 100)
        let prefix = text(345, 155)
        if !prefix.isEmpty, text(257, 5) == "ustar" { name = prefix + "/" + name }
        return Header(name: name, size: size, type: block[156], link: text(157, 100), offset: offset)
    }

    /// The path with `.` and empty components removed; nil when absolute or when `..` would climb out.
    static func safePath(_ raw: String) -> String? {
        guard !raw.hasPrefix("/") else { return nil }
        var parts: [Substring] = []
        for component in raw.split(separator: "/") {
            if component == "." || component.isEmpty { continue }
            if component == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(component)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
