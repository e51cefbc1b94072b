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
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { return nil }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (path, descriptor)
    }

    /// The file a download of `uuid` from `source` resumes into, open for appending and locked for this process:
    /// its path, descriptor, the bytes it holds and the validator the server gave for them; nil when another
    /// process holds it (that process is downloading it) or it cannot be made.
    ///
    /// A download cut short leaves its bytes here, so the next attempt (in this run or the next) asks only for the
    /// rest. The lock is `flock`'s, released when the descriptor is closed, also when a process dies.
    package func resumableFile(uuid: String, source: String) -> ResumableFile? {
        let path = folder + "/.resume-" + uuid + "-" + Self.sourceHash(source)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG
        else {
            close(descriptor)
            return nil
        }
        let held = Int64(info.st_size)
        var validator: String?
        if held > 0, let data = FileManager.default.contents(atPath: path + ".validator"), data.count <= 1_024 {
            validator = String(decoding: data, as: UTF8.self)
        }
        return ResumableFile(path: path, descriptor: descriptor, held: held, validator: validator)
    }

    /// Remembers the validator (`ETag` or `Last-Modified`) of the bytes a resumable file holds.
    package func keepValidator(_ validator: String?, for file: ResumableFile) {
        let path = file.path + ".validator"
        guard let validator, validator.utf8.count <= 1_024 else {
            unlink(path)
            return
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(validator.utf8))
    }

    /// Forgets a resumable file's bytes (and its validator); the descriptor stays open.
    package func discardResumable(_ file: ResumableFile) {
        unlink(file.path + ".validator")
        unlink(file.path)
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

    /// Removes files read longest ago until the folder holds at most ``limitBytes``, never `kept`; temporary and
    /// resumable files a day old (a download nobody finished) and expired markers go too.
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
            if name.hasPrefix(".partial-") || name.hasPrefix(".resume-") {
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
        folder + "/" + uuid + ".missing-" + Self.sourceHash(source)
    }

    /// FNV-1a of the source, in hex: one marker (or resumable file) per source, so adding a server asks it.
    private static func sourceHash(_ source: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// Sets the access time to now (mounts with `noatime` or `relatime` would not), so eviction sees use.
    private func markUsed(_ path: String) {
        // UTIME_NOW and UTIME_OMIT (C macros Swift does not import): now for the access time, the other kept.
        let times = [timespec(tv_sec: 0, tv_nsec: (1 << 30) - 1), timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2)]
        _ = utimensat(AT_FDCWD, path, times, 0)
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
