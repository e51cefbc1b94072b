import ByteAccess
import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads zip archives (App Store Connect's `appDsyms.zip`, CI artifacts) from a file or from memory, one entry at
/// a time, without extracting anything to disk.
///
/// The central directory is the index, as every unzip reads it: the end record (and the zip64 end record and
/// locator when a count, size or offset does not fit in the classic fields) gives its place; each entry's data
/// follows its local header. Every offset, count and size is checked against the archive's size before it is
/// used, entries are inflated under an ``ExpansionLimit``, and the CRC is checked, so a damaged or hostile archive
/// gives an ``InputError`` with the byte offset, never a trap or an unbounded allocation.
package struct ZipReader: Sendable {
    /// The bounds a hostile archive runs into.
    package struct Limits: Sendable, Equatable {
        /// Central directory entries read (an archive of dSYMs holds tens).
        package var maxEntries: Int
        /// How far one entry may expand.
        package var expansion: ExpansionLimit

        package init(maxEntries: Int = 100_000, expansion: ExpansionLimit = ExpansionLimit(maxBytes: 2 << 30)) {
            self.maxEntries = maxEntries
            self.expansion = expansion
        }
    }

    /// Where the archive's bytes are.
    private enum Source: Sendable {
        case bytes([UInt8])
        case file(RawPath)
    }

    private let source: Source
    /// The archive's size in bytes.
    package let size: Int
    package let limits: Limits
    /// The entries, in central directory order.
    package private(set) var entries: [ZipEntry] = []

    /// Reads the central directory of the archive in `bytes`.
    package init(bytes: [UInt8], limits: Limits = Limits()) throws(InputError) {
        source = .bytes(bytes)
        size = bytes.count
        self.limits = limits
        entries = try readDirectory()
    }

    /// Reads the central directory of the archive at `path`; entries are read from the file when asked for.
    package init(path: RawPath, limits: Limits = Limits()) throws(InputError) {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else {
            throw InputError(.unreadable, "cannot open: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw InputError(.wrongKind, "not a regular file") }
        source = .file(path)
        size = Int(clamping: info.st_size)
        self.limits = limits
        entries = try readDirectory()
    }

    /// True when `prefix` starts like a zip archive (a local header, or the end record of an empty one).
    package static func looksLikeZip(_ prefix: some Collection<UInt8>) -> Bool {
        let head = Array(prefix.prefix(4))
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06]
    }

    // MARK: - Entries

    /// The entry's bytes, inflated and checked against its CRC.
    ///
    /// - Throws: ``InputError``: `unreadable` for an encrypted entry or an unknown method, `syntax` for a damaged
    ///   header, data or CRC, `tooLarge` past the expansion limit.
    package func contents(of entry: ZipEntry) throws(InputError) -> [UInt8] {
        let name = entry.name
        let entryLocation = SourceLocation(byteOffset: Int(clamping: entry.localHeaderOffset), keyPath: name)
        if entry.isEncrypted { throw InputError(.unreadable, "the entry \(name) is encrypted", at: entryLocation) }
        guard entry.method == 0 || entry.method == 8 else {
            throw InputError(
                .unreadable,
                "the entry \(name) uses compression method \(entry.method)",
                at: entryLocation
            )
        }
        guard let headerOffset = Int(exactly: entry.localHeaderOffset), headerOffset <= size - 30 else {
            throw InputError(.syntax, "the entry \(name)'s local header lies outside the archive", at: entryLocation)
        }
        let header = try read(headerOffset, 30)
        guard le32(header, 0) == 0x0403_4B50 else {
            throw InputError(
                .syntax,
                "the entry \(name) has no local header where the directory says",
                at: entryLocation
            )
        }
        let dataOffset = headerOffset + 30 + Int(le16(header, 26)) + Int(le16(header, 28))
        guard let compressed = Int(exactly: entry.compressedSize), compressed <= size,
            dataOffset <= size - compressed
        else {
            throw InputError(.syntax, "the entry \(name)'s data runs past the end of the archive", at: entryLocation)
        }
        let limit = limits.expansion.bytes(forCompressed: compressed)
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw InputError(
                .tooLarge,
                "the entry \(name) declares \(entry.uncompressedSize) bytes: "
                    + limits.expansion.describe(compressed: compressed),
                at: entryLocation
            )
        }
        let data = try read(dataOffset, compressed)
        let output: [UInt8]
        if entry.method == 0 {
            guard entry.uncompressedSize == UInt64(compressed) else {
                throw InputError(.syntax, "the stored entry \(name) has two different sizes", at: entryLocation)
            }
            output = data
        } else {
            let inflater = try Inflater(windowBits: -15)
            let (bytes, ended): ([UInt8], Bool)
            do {
                (bytes, ended) = try inflater.feed(data, maxOutputBytes: limit)
            } catch let error where error.code == .tooLarge {
                throw InputError(
                    .tooLarge,
                    "the entry \(name) \(limits.expansion.describe(compressed: compressed))",
                    at: entryLocation
                )
            } catch {
                throw InputError(error.code, "the entry \(name): \(error.message)", at: entryLocation)
            }
            guard ended else { throw InputError(.syntax, "the entry \(name)'s data is cut off", at: entryLocation) }
            output = bytes
        }
        guard UInt64(output.count) == entry.uncompressedSize else {
            throw InputError(
                .syntax,
                "the entry \(name) holds \(output.count) bytes, the directory says \(entry.uncompressedSize)",
                at: entryLocation
            )
        }
        let crc = output.withUnsafeBufferPointer { buffer -> UInt32 in
            var value = CZlib.crc32(0, nil, 0)
            var start = 0
            // zlib takes a 32-bit length: fed in pieces.
            while start < buffer.count {
                let count = min(buffer.count - start, 1 << 30)
                value = CZlib.crc32(value, buffer.baseAddress.map { $0 + start }, uInt(count))
                start += count
            }
            return UInt32(truncatingIfNeeded: value)
        }
        guard crc == entry.crc32 else {
            throw InputError(.syntax, "the entry \(name) fails its CRC check (damaged data)", at: entryLocation)
        }
        return output
    }

    // MARK: - Central directory

    private func readDirectory() throws(InputError) -> [ZipEntry] {
        guard size >= 22 else { throw InputError(.syntax, "too short for a zip archive (\(size) bytes)") }
        // The end record is the last 22 bytes plus a comment of up to 65,535 bytes.
        let tailLength = min(size, 22 + 0xFFFF)
        let tailStart = size - tailLength
        let tail = try read(tailStart, tailLength)
        // The last signature whose comment length fits what follows it, searched backwards over the raw bytes.
        let found: Int? = {
            let bytes = tail
            var k = bytes.count - 22
            while k >= 0 {
                if bytes[k] == 0x50, bytes[k + 1] == 0x4B, bytes[k + 2] == 0x05, bytes[k + 3] == 0x06,
                    k + 22 + (Int(bytes[k + 20]) | Int(bytes[k + 21]) << 8) <= bytes.count
                {
                    return k
                }
                k -= 1
            }
            return nil
        }()
        guard let end = found else { throw InputError(.syntax, "no zip end-of-central-directory record") }
        let endOffset = tailStart + end
        var count = UInt64(le16(tail, end + 10))
        var directorySize = UInt64(le32(tail, end + 12))
        var directoryOffset = UInt64(le32(tail, end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // zip64: a locator just before the end record points at the zip64 end record.
            guard endOffset >= 20 else { throw InputError(.syntax, "zip64 fields without a zip64 locator") }
            let locator = try read(endOffset - 20, 20)
            guard le32(locator, 0) == 0x0706_4B50 else {
                throw InputError(.syntax, "zip64 fields without a zip64 locator", at: at(endOffset - 20))
            }
            let recordOffset = le64(locator, 8)
            guard let record = Int(exactly: recordOffset), record <= endOffset - 20 - 56 else {
                throw InputError(.syntax, "the zip64 end record lies outside the archive", at: at(endOffset - 20))
            }
            let zip64 = try read(record, 56)
            guard le32(zip64, 0) == 0x0606_4B50 else {
                throw InputError(.syntax, "no zip64 end record where the locator says", at: at(record))
            }
            count = le64(zip64, 32)
            directorySize = le64(zip64, 40)
            directoryOffset = le64(zip64, 48)
        }
        guard let start = Int(exactly: directoryOffset), let length = Int(exactly: directorySize),
            start <= endOffset, length <= endOffset - start
        else {
            throw InputError(.syntax, "the central directory lies outside the archive", at: at(endOffset))
        }
        // Each central header takes at least 46 bytes: a count beyond that is a lie, not a reason to allocate.
        guard count <= UInt64(length / 46) else {
            throw InputError(
                .syntax,
                "the end record claims \(count) entries in a \(length)-byte central directory",
                at: at(endOffset)
            )
        }
        guard count <= UInt64(limits.maxEntries) else {
            throw InputError(.tooLarge, "more than \(limits.maxEntries) entries (\(count))", at: at(endOffset))
        }
        let directory = try read(start, length)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(count))
        var position = 0
        for index in 0..<Int(count) {
            guard position <= directory.count - 46, le32(directory, position) == 0x0201_4B50 else {
                throw InputError(.syntax, "central directory entry \(index) is damaged", at: at(start + position))
            }
            let nameLength = Int(le16(directory, position + 28))
            let extraLength = Int(le16(directory, position + 30))
            let commentLength = Int(le16(directory, position + 32))
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw InputError(
                    .syntax,
                    "central directory entry \(index) runs past its end",
                    at: at(start + position)
                )
            }
            var entry = ZipEntry(
                rawName: Array(directory[(position + 46)..<(position + 46 + nameLength)]),
                index: index,
                method: le16(directory, position + 10),
                flags: le16(directory, position + 8),
                crc32: le32(directory, position + 16),
                compressedSize: UInt64(le32(directory, position + 20)),
                uncompressedSize: UInt64(le32(directory, position + 24)),
                localHeaderOffset: UInt64(le32(directory, position + 42))
            )
            Self.applyZip64(
                &entry,
                extra: directory[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)]
            )
            entries.append(entry)
            position = next
        }
        return entries
    }

    /// Replaces the fields stored as 0xFFFFFFFF with the zip64 extra field's values, in the order the format
    /// gives them (uncompressed size, compressed size, offset), each present only when its field overflowed.
    private static func applyZip64(_ entry: inout ZipEntry, extra: ArraySlice<UInt8>) {
        let bytes = Array(extra)
        var position = 0
        while position + 4 <= bytes.count {
            let id = le16(bytes, position)
            let length = Int(le16(bytes, position + 2))
            let body = position + 4
            guard body + length <= bytes.count else { return }
            if id == 0x0001 {
                var cursor = body
                func next() -> UInt64? {
                    guard cursor + 8 <= body + length else { return nil }
                    defer { cursor += 8 }
                    return le64(bytes, cursor)
                }
                if entry.uncompressedSize == 0xFFFF_FFFF, let value = next() { entry.uncompressedSize = value }
                if entry.compressedSize == 0xFFFF_FFFF, let value = next() { entry.compressedSize = value }
                if entry.localHeaderOffset == 0xFFFF_FFFF, let value = next() { entry.localHeaderOffset = value }
                return
            }
            position = body + length
        }
    }

    // MARK: - Bytes

    private func at(_ offset: Int) -> SourceLocation { SourceLocation(byteOffset: offset) }

    /// `count` bytes at `offset`; the range was checked against ``size`` by the caller.
    private func read(_ offset: Int, _ count: Int) throws(InputError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw InputError(.syntax, "a read past the end of the archive", at: at(offset))
        }
        switch source {
        case .bytes(let bytes):
            return bytes[offset..<(offset + count)].withBorrowedBytes { $0.array }
        case .file(let path):
            let fd = path.withCString { open($0, O_RDONLY) }
            guard fd >= 0 else { throw InputError(.unreadable, "cannot open: \(String(cString: strerror(errno)))") }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = buffer.fillBytes(at: done, count: count - done) { pread(fd, $0, $1, off_t(offset + done)) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else {
                    throw InputError(.unreadable, "the archive changed or cannot be read", at: at(offset + done))
                }
                done += got
            }
            return buffer
        }
    }
}

/// Little-endian fields, read where the caller checked the bounds (0 past the end, never a trap).
private func le16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
    guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
    return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
}

private func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
    return UInt32(le16(bytes, offset)) | UInt32(le16(bytes, offset + 2)) << 16
}

private func le64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    guard offset >= 0, offset + 8 <= bytes.count else { return 0 }
    return UInt64(le32(bytes, offset)) | UInt64(le32(bytes, offset + 4)) << 32
}
