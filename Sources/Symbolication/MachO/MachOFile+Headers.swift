import APMInspectCore
import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MachOFile {
    /// What is read of a file's start before its headers say how much more they need.
    static let headerPrefixBytes = 64 << 10
    /// Most bytes of one slice's header and load commands read this way (real ones take kilobytes).
    static let maxHeaderBytes = 16 << 20

    /// The file's slices, read from their headers and load commands alone.
    ///
    /// Finding a file's UUIDs is the whole cost of indexing a folder of dSYMs, and a dSYM's DWARF runs to hundreds
    /// of megabytes that the headers do not need: this reads the first bytes, each slice's header and its load
    /// commands, and nothing else, then parses them with the same reader (every range still checked against the
    /// file's length). Nil when they cannot be read this way (a file past the size limit, a damaged or cut header,
    /// commands larger than ``maxHeaderBytes``): the caller then reads the whole file, and gets the same answer or
    /// the same error with its location.
    package static func headers(at path: RawPath) -> MachOFile? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            info.st_size <= off_t(MachOLimits.maxFileSize)
        else { return nil }
        let size = Int(info.st_size)
        guard var prefix = read(fd, at: 0, count: min(size, headerPrefixBytes)), prefix.count >= 8 else { return nil }
        var windows: [MachOBytes.Window] = []
        let head = MachOBytes(bytes: prefix)
        guard let magic = head.u32(at: 0, littleEndian: false) else { return nil }
        if magic == fatMagic || magic == fatMagic64 {
            guard let count = head.u32(at: 4, littleEndian: false), count > 0,
                count <= MachOLimits.maxFatArchitectures
            else { return nil }
            let entrySize = magic == fatMagic64 ? 32 : 20
            for index in 0..<Int(count) {
                let entry = 8 + index * entrySize
                let offset =
                    magic == fatMagic64
                    ? head.u64(at: entry + 8, littleEndian: false)
                    : head.u32(at: entry + 8, littleEndian: false).map(UInt64.init)
                guard let offset, let start = MachOBytes.offset(offset), start < size,
                    let window = sliceHeaders(fd, at: start, fileSize: size)
                else { return nil }
                windows.append(MachOBytes.Window(start: start, bytes: window))
            }
        } else {
            guard let whole = sliceHeaders(fd, at: 0, fileSize: size) else { return nil }
            if whole.count > prefix.count { prefix = whole }
        }
        return try? MachOFile(file: MachOBytes(prefix: prefix, windows: windows, count: size))
    }

    /// The file's slices from their headers and load commands, with their symbol and string tables read too, and
    /// nothing else.
    ///
    /// A system library of Xcode's DeviceSupport folders has no DWARF, and its symbol table is all that names its
    /// frames, while its code and data run to tens of megabytes: opening it this way reads a fraction of it. Nil
    /// when the headers cannot be read apart, or a table lies outside the file or cannot be read: the caller then
    /// reads the whole file and gets the same answer, or the same error with its location.
    package static func symbolTables(at path: RawPath) -> MachOFile? {
        guard let headers = headers(at: path), let parts = headers.slices.first?.file else { return nil }
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var extra: [MachOBytes.Window] = []
        for slice in headers.slices {
            guard let symtab = slice.symtab else { continue }
            let (tableSize, overflow) = Int(symtab.symbolCount).multipliedReportingOverflow(by: slice.is64Bit ? 16 : 12)
            guard !overflow else { return nil }
            for (offset, count) in [
                (Int(symtab.symbolOffset), tableSize), (Int(symtab.stringOffset), Int(symtab.stringSize)),
            ]
            where count > 0 {
                guard let start = MachOBytes.end(slice.fileOffset, offset), let end = MachOBytes.end(start, count),
                    end <= parts.count, count <= MachOLimits.maxFileSize,
                    let window = Self.read(fd, at: start, count: count), window.count == count
                else { return nil }
                extra.append(MachOBytes.Window(start: start, bytes: window))
            }
        }
        return try? MachOFile(file: parts.adding(extra))
    }

    /// The header and load commands of the slice at `start`, as far as the file holds them.
    private static func sliceHeaders(_ fd: Int32, at start: Int, fileSize: Int) -> [UInt8]? {
        guard let header = read(fd, at: start, count: min(32, fileSize - start)), header.count >= 28 else {
            return nil
        }
        let bytes = MachOBytes(bytes: header)
        guard let magic = bytes.u32(at: 0, littleEndian: true), let kind = MachOSlice.kind(ofMagic: magic),
            let commands = bytes.u32(at: 20, littleEndian: kind.isLittleEndian),
            let commandsLength = MachOBytes.offset(commands)
        else { return nil }
        let wanted = (kind.is64Bit ? 32 : 28) + commandsLength
        guard wanted <= maxHeaderBytes else { return nil }
        return read(fd, at: start, count: min(wanted, fileSize - start))
    }

    /// `count` bytes at `offset` of the open file `fd`, fewer when the file ends first; nil when the read fails.
    ///
    /// The one reader of file windows (a dyld shared cache's tables are read through it too), so that the
    /// buffer handling stays in one place.
    static func readWindow(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        read(fd, at: offset, count: count)
    }

    /// `count` bytes at `offset`, fewer when the file ends first; nil when the read fails.
    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = buffer.fillBytes(at: done, count: count - done) { pread(fd, $0, $1, off_t(offset + done)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            done += got
        }
        return Array(buffer.prefix(done))
    }
}
