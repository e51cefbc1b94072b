import APMInspectCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files downloaded from symbol servers, by UUID, in `<cache>/downloads/`: what one process fetched, the next
/// reuses.
///
/// Safe with several processes at once without locks: a download is written to a temporary file in the same
/// folder and renamed over its UUID's name, so a reader sees a whole file or none, and two processes fetching one
/// UUID both end with the same complete file. Reading a file marks it used (its access time), and the files used
/// longest ago are removed when the folder holds more than its limit.
package struct SymbolDownloadCache: Sendable {
    package let folder: String
    package let limitBytes: Int64
    package let missingSeconds: Int64

    /// The cache below `directory` (the `--symbol-cache` folder); nil when the folder cannot be made.
    package init?(directory: String, limitBytes: Int64, missingSeconds: Int64) {
        folder = directory + "/downloads"
        self.limitBytes = limitBytes
        self.missingSeconds = missingSeconds
        guard Self.makeFolders(folder) else { return nil }
    }

    /// The cached file of `uuid` (lower case, no dashes), marked used; nil when there is none.
    package func file(forUUID uuid: String) -> String? {
        let path = folder + "/" + uuid
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        markUsed(path)
        return path
    }

    /// True when `source` was found lacking `uuid` less than ``missingSeconds`` ago.
    package func isKnownMissing(uuid: String, source: String) -> Bool {
        guard missingSeconds > 0 else { return false }
        var info = stat()
        guard stat(missingMarker(uuid: uuid, source: source), &info) == 0 else { return false }
        let age = Int64(time(nil)) - Int64(info.st_mtim.tv_sec)
        return age >= 0 && age < missingSeconds
    }

    /// Remembers that `source` lacks `uuid` (an empty marker file, its time the answer's).
    package func recordMissing(uuid: String, source: String) {
        guard missingSeconds > 0 else { return }
        let path = missingMarker(uuid: uuid, source: source)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor >= 0 { close(descriptor) }
    }

    /// A new temporary file in the cache folder, open for writing: its path and descriptor.
    package func makeTemporaryFile() -> (path: String, descriptor: Int32)? {
        var template = Array((folder + "/.partial-\(getpid())-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemp(base)
        }
        guard descriptor >= 0 else { return nil }
        let path = template.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (path, descriptor)
    }

    /// Moves a finished download into place under `uuid` (atomically) and trims the cache; the final path, or nil
    /// when the rename failed (the temporary file is then removed).
    package func store(temporary: String, uuid: String) -> String? {
        let path = folder + "/" + uuid
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return nil
        }
        markUsed(path)
        trim(keeping: path)
        return path
    }

    /// Removes files read longest ago until the folder holds at most ``limitBytes``, never `kept`; temporary files
    /// a stopped process left (a day old) and expired markers go too.
    package func trim(keeping kept: String? = nil) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var files: [(path: String, size: Int64, used: Int64)] = []
        var total: Int64 = 0
        let now = Int64(time(nil))
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = folder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            if name.hasPrefix(".partial-") {
                if now - Int64(info.st_mtim.tv_sec) > 86_400 { unlink(path) }
                continue
            }
            if name.contains(".missing-") {
                if now - Int64(info.st_mtim.tv_sec) > max(missingSeconds, 0) { unlink(path) }
                continue
            }
            let size = Int64(info.st_size)
            total += size
            files.append((path, size, Int64(info.st_atim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_atim.tv_nsec)))
        }
        guard total > limitBytes else { return }
        for file in files.sorted(by: { $0.used < $1.used }) where file.path != kept {
            if total <= limitBytes { break }
            if unlink(file.path) == 0 { total -= file.size }
        }
    }

    private func missingMarker(uuid: String, source: String) -> String {
        // FNV-1a of the source: one marker per source, so adding a server asks it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return folder + "/" + uuid + ".missing-" + String(hash, radix: 16)
    }

    /// Sets the access time to now (mounts with `noatime` or `relatime` would not), so eviction sees use.
    private func markUsed(_ path: String) {
        // UTIME_NOW and UTIME_OMIT (C macros Swift does not import): now for the access time, the other kept.
        var times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        _ = times.withUnsafeMutableBufferPointer { utimensat(AT_FDCWD, path, $0.baseAddress, 0) }
    }

    private static func makeFolders(_ path: String) -> Bool {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
