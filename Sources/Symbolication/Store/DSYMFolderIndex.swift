import APMInspectCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the dSYM search found in each file of one folder source (`--symbols DIR`), kept in the symbol cache between
/// runs, so a folder of ten thousand dSYMs is read once and afterwards only walked.
///
/// Finding a file's UUIDs means reading its Mach-O headers, and the loader reads the whole file to do so: for a
/// large folder that is most of the cost of a run. A file whose size, modification time, inode and device are
/// unchanged since it was recorded is not read again; its slices come from the index. A file that gave a finding is
/// not recorded, so it is tried again. The index is only a cache: one that cannot be read, is from another version
/// or names another folder is ignored and rebuilt, and one that cannot be written costs the next run a read, never
/// this run's result.
package final class DSYMFolderIndex {
    /// Where the index of this folder is stored.
    package let storage: String
    /// Files whose slices came from the index.
    package private(set) var reused = 0
    /// Files read because the index did not know them, or they changed.
    package private(set) var read = 0

    private let folder: String
    private var previous: [String: Record]
    private var current: [String: Record] = [:]

    /// The layout of the stored index; another value is ignored.
    static let version = 2
    /// An index file larger than this is ignored (a folder of 100,000 files stays well under it).
    static let maxStoredBytes = 256 << 20

    /// The index of `folder` (its real path), read from `cacheDirectory` when an earlier run left one.
    package init(folder: RawPath, cacheDirectory: String) {
        let real = folder.withCString { pointer in realpath(pointer, nil) }
        let resolved = real.map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
        self.folder = resolved ?? folder.display
        let digest = SHA256Digest.hash(Array(self.folder.utf8)).prefix(16).map { String($0, radix: 16) }
        let name = digest.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        storage = cacheDirectory + "/folders/" + name + ".json"
        previous = Self.load(storage, folder: self.folder)
    }

    /// The slices recorded for `file`, when it is unchanged since; nil when it has to be read.
    func entries(of file: RawPath, status: stat) -> [(DSYMStore.Entry, Bool)]? {
        guard file.isUTF8, let record = previous[file.display], record.key == FileKey(status) else { return nil }
        var entries: [(DSYMStore.Entry, Bool)] = []
        for slice in record.slices {
            let location: DSYMLocation
            if slice.dyldCache == true {
                location = .dyldCacheImage(cache: file, name: slice.member ?? "")
            } else if let member = slice.member, let index = slice.memberIndex {
                location = .zipEntry(archive: file, index: index, name: member)
            } else {
                location = .file(file)
            }
            let debug = DebugSlice(
                uuid: slice.uuid,
                arch: slice.arch,
                textVMAddress: slice.vmaddr,
                fileOffset: slice.offset,
                size: slice.size
            )
            entries.append((DSYMStore.Entry(slice: debug, location: location), slice.inDSYM))
        }
        current[file.display] = record
        reused += 1
        return entries
    }

    /// Records what reading `file` found (nothing, for a file that is not Mach-O, so it is not sniffed again).
    func record(_ file: RawPath, status: stat, entries: [(DSYMStore.Entry, Bool)]) {
        read += 1
        guard file.isUTF8 else { return }
        let slices = entries.map { entry, inDSYM in
            var member: String?
            var memberIndex: Int?
            var dyldCache: Bool?
            if case .zipEntry(_, let index, let name) = entry.location {
                member = name
                memberIndex = index
            } else if case .dyldCacheImage(_, let name) = entry.location {
                member = name
                dyldCache = true
            }
            return Slice(
                uuid: entry.slice.uuid,
                arch: entry.slice.arch,
                vmaddr: entry.slice.textVMAddress,
                offset: entry.slice.fileOffset,
                size: entry.slice.size,
                member: member,
                memberIndex: memberIndex,
                inDSYM: inDSYM,
                dyldCache: dyldCache
            )
        }
        current[file.display] = Record(key: FileKey(status), slices: slices)
    }

    /// Stores the index when this run changed it (a file read, or a file gone); a finding when it could not.
    package func save() -> Diagnostic? {
        guard read > 0 || current.count != previous.count else { return nil }
        let document = Document(version: Self.version, folder: folder, files: current)
        do {
            try Self.makeFolders(for: storage)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try AtomicOutputFile.write(Array(try encoder.encode(document)), to: storage)
            return nil
        } catch {
            return Diagnostic(
                .warning,
                .symbolCacheUnwritable,
                "the index of \(folder) could not be kept in the symbol cache (\(storage)): \(error); the next run reads the folder again"
            )
        }
    }

    private static func load(_ path: String, folder: String) -> [String: Record] {
        guard let bytes = try? FileReading.contents(atPath: path, maxBytes: maxStoredBytes),
            let document = try? JSONDecoder().decode(Document.self, from: Data(bytes)),
            document.version == version, document.folder == folder
        else { return [:] }
        return document.files
    }

    /// Creates the folders above `path`, private to the user (a symbol cache says which apps they debug).
    private static func makeFolders(for path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(
            atPath: parent,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }

    struct FileKey: Codable, Hashable {
        var size: Int64
        var seconds: Int64
        var nanoseconds: Int64
        var inode: UInt64
        var device: UInt64

        init(_ status: stat) {
            size = Int64(status.st_size)
            #if canImport(Darwin)
                seconds = Int64(status.st_mtimespec.tv_sec)
                nanoseconds = Int64(status.st_mtimespec.tv_nsec)
            #else
                seconds = Int64(status.st_mtim.tv_sec)
                nanoseconds = Int64(status.st_mtim.tv_nsec)
            #endif
            inode = UInt64(status.st_ino)
            device = UInt64(status.st_dev)
        }
    }

    struct Slice: Codable {
        var uuid: String
        var arch: String
        var vmaddr: UInt64
        var offset: Int
        var size: Int
        var member: String?
        var memberIndex: Int?
        var inDSYM: Bool
        /// True for an image of a dyld shared cache (the file is the cache, `member` the image's install name).
        var dyldCache: Bool?
    }

    struct Record: Codable {
        var key: FileKey
        var slices: [Slice]
    }

    struct Document: Codable {
        var version: Int
        var folder: String
        var files: [String: Record]
    }
}
