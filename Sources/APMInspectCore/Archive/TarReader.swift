/// Reads tar archives (optionally gzip-compressed) as a stream of members, safely.
///
/// Hostile archives are expected: member paths that climb out (`../`) or are absolute are reported and skipped,
/// links are reported and never followed, FIFOs and device nodes are reported and ignored, and the work is bounded
/// relative to the input (see ``Options``); a truncated archive yields the members before the cut plus a
/// diagnostic. PAX (`x`, `g`) and GNU (`L`, `K`) long-name headers are honoured. Nothing is written to disk.
package struct TarReader: Sendable {
    /// Limits for one archive.
    ///
    /// Each one that fires says so by name, with its value. The defaults are the one set every command reads
    /// archives with (`scan`, `report`, `memory-limits`, `energy`; docs/scan.md): reports are small, PowerLog
    /// databases stay well under 256 MiB, and sample sysdiagnoses expand about 5:1 where a bomb reaches 1000:1.
    package struct Options: Sendable, Equatable {
        /// Total work: the most bytes of the (decompressed) stream read.
        package var maxTotalBytes: UInt64
        package var maxEntries: Int
        /// Members larger than this are reported with `TarEntry/skippedForSize` and no data.
        package var maxEntryBytes: UInt64
        /// The most decompressed bytes per compressed byte, over the stream read so far (gzip tops out near
        /// 1032:1; the project's sample sysdiagnoses expand about 5:1).
        package var maxExpansionRatio: UInt64
        /// The ratio is checked only once this much has been decompressed, so small archives of repetitive text
        /// are never refused.
        package var ratioFloorBytes: UInt64

        package init(
            maxTotalBytes: UInt64 = 8 << 30,
            maxEntries: Int = 500_000,
            maxEntryBytes: UInt64 = 256 << 20,
            maxExpansionRatio: UInt64 = 100,
            ratioFloorBytes: UInt64 = 64 << 20
        ) {
            self.maxTotalBytes = maxTotalBytes
            self.maxEntries = maxEntries
            self.maxEntryBytes = maxEntryBytes
            self.maxExpansionRatio = maxExpansionRatio
            self.ratioFloorBytes = ratioFloorBytes
        }
    }

    package var options: Options

    package init(options: Options = Options()) {
        self.options = options
    }

    /// True when `bytes` start like a tar archive (the `ustar` magic of the first header).
    package static func isTar(_ prefix: [UInt8]) -> Bool {
        guard prefix.count >= 262 else { return false }
        return prefix[257] == UInt8(ascii: "u") && prefix[258] == UInt8(ascii: "s") && prefix[259] == UInt8(ascii: "t")
            && prefix[260] == UInt8(ascii: "a") && prefix[261] == UInt8(ascii: "r")
    }

    /// Reads the archive at `path` (plain or gzip-compressed), calling `body` for each member in order.
    ///
    /// - Returns: Findings: skipped members and why, truncation, limits reached.
    /// - Throws: ``InputError`` when the file cannot be read or is not an archive at all; `body`'s errors pass
    ///   through.
    package func read(
        fileAt path: String,
        _ body: (TarEntry) throws -> Void
    ) throws -> [Diagnostic] {
        try read(fileAt: RawPath(path), body)
    }

    /// Reads the archive at a path kept as bytes (a name that is not UTF-8).
    package func read(fileAt path: RawPath, _ body: (TarEntry) throws -> Void) throws -> [Diagnostic] {
        let source = ByteSource(path: path)
        var state = ParserState(options: options)
        try source.stream { chunk, consumed in
            try state.feed(chunk, consumed: consumed, body)
            return !state.isDone
        }
        state.finish(truncatedStream: source.truncated && !state.stopped)
        if let offset = source.trailingOffset { state.diagnostics.append(ByteSource.trailingNote(offset)) }
        return state.diagnostics
    }

    /// Reads an archive already in memory (plain or gzip-compressed), with the same limits as a file.
    package func read(bytes: [UInt8], _ body: (TarEntry) throws -> Void) throws -> [Diagnostic] {
        var state = ParserState(options: options)
        let (truncated, trailing) = try ByteSource.stream(bytes) { chunk, consumed in
            try state.feed(chunk, consumed: consumed, body)
            return !state.isDone
        }
        state.finish(truncatedStream: truncated && !state.stopped)
        if let trailing { state.diagnostics.append(ByteSource.trailingNote(trailing)) }
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
    /// Fields of the next member from `x`/`L`/`K` headers, and of every later member from `g` headers.
    private var next = Extended()
    private var global = Extended()
    private var ended = false
    private(set) var stopped = false
    /// The end-of-archive blocks were read or a limit stopped the reading: no more input is wanted.
    var isDone: Bool { ended || stopped }

    /// Extended-header data larger than this is skipped: PAX records and long names are small.
    private static let maxMetadataBytes: UInt64 = 1 << 20

    struct Header {
        var name: [UInt8]
        var size: UInt64
        var type: UInt8
        var link: [UInt8]
        var offset: UInt64
    }

    struct Extended {
        var path: [UInt8]?
        var linkPath: [UInt8]?
        var size: UInt64?
    }

    init(options: TarReader.Options) {
        self.options = options
    }

    /// Parses `chunk`; `consumed` is how many input (compressed) bytes produced everything fed so far.
    mutating func feed(_ chunk: [UInt8], consumed: UInt64, _ body: (TarEntry) throws -> Void) throws {
        guard !ended, !stopped else { return }
        total += UInt64(chunk.count)
        if total > options.maxTotalBytes {
            stop(
                .archiveTotalSizeLimit,
                "total-size limit reached: the archive expands past \(options.maxTotalBytes) bytes; stopped reading"
            )
            return
        }
        if total > options.ratioFloorBytes, total / max(consumed, 1) > options.maxExpansionRatio {
            stop(
                .archiveExpansionRatioLimit,
                "expansion-ratio limit reached: \(total) bytes from \(consumed) compressed bytes is more than "
                    + "\(options.maxExpansionRatio):1; stopped reading (a decompression bomb?)"
            )
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
            // Taken out of `current` while its data grows: a copy left behind would make every append copy
            // the member's whole buffer (quadratic in the member's size).
            if var entry = current.take() {
                let available = pending.count - position
                let take = Int(min(UInt64(available), entry.remaining))
                if entry.keep { entry.data.append(contentsOf: pending[position..<position + take]) }
                position += take
                entry.remaining -= UInt64(take)
                if entry.remaining > 0 {
                    current = entry
                    break
                }
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
            let offset = total - UInt64(pending.count - position) - 512
            guard var header = parseHeader(block, offset: offset) else {
                stop(.archiveDamagedHeader, "a member header is damaged (bad checksum) at byte \(offset)")
                break
            }
            entries += 1
            if entries > options.maxEntries {
                stop(
                    .archiveMemberCountLimit,
                    "member-count limit reached: more than \(options.maxEntries) members; stopped reading"
                )
                break
            }
            let isMetadata = Self.isMetadata(header.type)
            if !isMetadata, let size = next.size ?? global.size { header.size = size }
            let padding = Int((512 - header.size % 512) % 512)
            let isData = Self.isData(header.type)
            let keep =
                (isData && header.size <= options.maxEntryBytes)
                || (isMetadata && header.size <= Self.maxMetadataBytes)
            if isData && !keep {
                // Said now, not after the skipped bytes: another limit may stop the archive before then.
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        .archiveMemberTooLarge,
                        "member '\(RawPath.escaped(next.path ?? global.path ?? header.name))' is \(header.size) "
                            + "bytes, over the \(options.maxEntryBytes)-byte limit; skipped (per-member limit)",
                        at: SourceLocation(byteOffset: Int(clamping: offset))
                    )
                )
            } else if isMetadata && !keep {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        .archiveExtendedHeaderTooLarge,
                        "an extended header of \(header.size) bytes is over the \(Self.maxMetadataBytes)-byte limit; "
                            + "ignored",
                        at: SourceLocation(byteOffset: Int(clamping: offset))
                    )
                )
            }
            current = (header, header.size, padding, [], keep)
            if header.size == 0 {
                current = nil
                try emit(header, data: [], kept: keep, body)
            }
        }
        pending.removeFirst(position)
    }

    private static func isData(_ type: UInt8) -> Bool {
        type == UInt8(ascii: "0") || type == 0 || type == UInt8(ascii: "7")
    }

    private static func isMetadata(_ type: UInt8) -> Bool {
        type == UInt8(ascii: "x") || type == UInt8(ascii: "g") || type == UInt8(ascii: "L") || type == UInt8(ascii: "K")
    }

    private mutating func emit(_ header: Header, data: [UInt8], kept: Bool, _ body: (TarEntry) throws -> Void) throws {
        switch header.type {
        case UInt8(ascii: "L"):
            if kept { next.path = Array(data.prefix { $0 != 0 }) }
            return
        case UInt8(ascii: "K"):
            if kept { next.linkPath = Array(data.prefix { $0 != 0 }) }
            return
        case UInt8(ascii: "x"):
            if kept { Self.readPAX(data, into: &next) }
            return
        case UInt8(ascii: "g"):
            if kept { Self.readPAX(data, into: &global) }
            return
        default:
            break
        }
        let rawName = next.path ?? global.path ?? header.name
        let rawLink = next.linkPath ?? global.linkPath ?? header.link
        next = Extended()
        let location = SourceLocation(byteOffset: Int(clamping: header.offset))
        // `./`, the archive's own folder (what `tar -C dir .` writes first): nothing to read and nothing unsafe.
        if header.type == UInt8(ascii: "5"), Self.isArchiveRoot(RawPath.escaped(rawName)) { return }
        guard let path = Self.safePath(RawPath.escaped(rawName)) else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .archiveUnsafePath,
                    "skipped member '\(RawPath.escaped(rawName))': its path is absolute or climbs out of the archive",
                    at: location
                )
            )
            return
        }
        let link = RawPath.escaped(rawLink)
        let kind: TarEntry.Kind
        switch header.type {
        case UInt8(ascii: "0"), 0, UInt8(ascii: "7"): kind = .file
        case UInt8(ascii: "5"): kind = .directory
        case UInt8(ascii: "2"): kind = .symbolicLink(target: link)
        case UInt8(ascii: "1"): kind = .hardLink(target: link)
        default: kind = .other(header.type)
        }
        switch kind {
        case .symbolicLink, .hardLink:
            diagnostics.append(
                Diagnostic(.note, .archiveLinkNotFollowed, "link '\(path)' → '\(link)' not followed", at: location)
            )
        case .other(let type):
            diagnostics.append(
                Diagnostic(
                    .note,
                    .archiveSpecialMemberIgnored,
                    "member '\(path)' is \(Self.describe(type)); ignored",
                    at: location
                )
            )
        default:
            break
        }
        let skipped = kind == .file && !kept
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

    private static func describe(_ type: UInt8) -> String {
        switch type {
        case UInt8(ascii: "3"): "a character device node"
        case UInt8(ascii: "4"): "a block device node"
        case UInt8(ascii: "6"): "a FIFO (named pipe)"
        default:
            (0x21...0x7E).contains(type)
                ? "of type '\(Character(Unicode.Scalar(type)))', not a regular file"
                : "of type \(type), not a regular file"
        }
    }

    mutating func finish(truncatedStream: Bool) {
        if !stopped, current != nil || truncatedStream || (!ended && !pending.isEmpty) {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .archiveTruncated,
                    "the archive is truncated: members after byte \(total) are missing",
                    at: nil
                )
            )
        }
    }

    private mutating func stop(_ code: Diagnostic.Code, _ message: String) {
        stopped = true
        diagnostics.append(Diagnostic(.warning, code, message, at: nil))
    }

    /// Reads PAX records (`<length> <key>=<value>\n`, the length counting the whole record) for the keys that
    /// change where a member's bytes are or what it is called; others (times, owners) do not matter here.
    static func readPAX(_ data: [UInt8], into fields: inout Extended) {
        var start = 0
        while start < data.count {
            var digitsEnd = start
            var length = 0
            while digitsEnd < data.count, data[digitsEnd] >= 0x30, data[digitsEnd] <= 0x39, digitsEnd - start < 9 {
                length = length * 10 + Int(data[digitsEnd] - 0x30)
                digitsEnd += 1
            }
            guard digitsEnd > start, digitsEnd < data.count, data[digitsEnd] == 0x20, length > digitsEnd - start,
                start + length <= data.count
            else { return }
            let end = start + length
            var recordEnd = end
            if data[end - 1] == 0x0A { recordEnd -= 1 }
            let record = data[(digitsEnd + 1)..<max(digitsEnd + 1, recordEnd)]
            if let equals = record.firstIndex(of: UInt8(ascii: "=")) {
                let key = String(decoding: record[record.startIndex..<equals], as: UTF8.self)
                let value = Array(record[(equals + 1)...])
                switch key {
                case "path": fields.path = value.isEmpty ? nil : value
                case "linkpath": fields.linkPath = value.isEmpty ? nil : value
                case "size":
                    fields.size = value.isEmpty ? nil : UInt64(String(decoding: value, as: UTF8.self))
                default: break
                }
            }
            start = end
        }
    }

    private func parseHeader(_ block: [UInt8], offset: UInt64) -> Header? {
        func bytes(_ start: Int, _ length: Int) -> [UInt8] {
            Array(block[start..<start + length].prefix { $0 != 0 })
        }
        func octal(_ start: Int, _ length: Int) -> UInt64? {
            let field = block[start..<start + length]
            if let first = field.first, first & 0x80 != 0 {
                // GNU base-256 for sizes over 8 GiB; more than 8 significant bytes cannot be a real size.
                let rest = field.dropFirst()
                guard first & 0x7F == 0, rest.dropLast(8).allSatisfy({ $0 == 0 }) else { return nil }
                return rest.suffix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
            }
            let digits = field.prefix { $0 != 0 && $0 != 0x20 }.drop { $0 == 0x20 }
            if digits.isEmpty { return 0 }
            return UInt64(String(decoding: digits, as: UTF8.self), radix: 8)
        }
        guard let checksum = octal(148, 8) else { return nil }
        var sum: UInt64 = 0
        for (i, byte) in block.enumerated() { sum += (148..<156).contains(i) ? 0x20 : UInt64(byte) }
        guard sum == checksum, let size = octal(124, 12) else { return nil }
        var name = bytes(0, 100)
        let prefix = bytes(345, 155)
        if !prefix.isEmpty, bytes(257, 5) == Array("ustar".utf8) { name = prefix + [UInt8(ascii: "/")] + name }
        return Header(name: name, size: size, type: block[156], link: bytes(157, 100), offset: offset)
    }

    /// True for `.`, `./` and the like: a relative path that names the archive's own folder.
    static func isArchiveRoot(_ raw: String) -> Bool {
        !raw.isEmpty && !raw.hasPrefix("/") && raw.split(separator: "/").allSatisfy { $0 == "." }
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
