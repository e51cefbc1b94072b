import APMInspectCore

extension PowerLogReader {
    /// What a folder search found, and every path it could not search.
    package struct Discovery: Sendable, Equatable {
        /// The PowerLog files, in byte order of their paths; names kept as bytes (they need not be UTF-8).
        package var files: [RawPath]
        /// What the walk could not read, for the caller to show (a library does not print).
        ///
        /// A folder that could not be listed is an error (a database may be in it); a link loop or a FIFO is a
        /// note.
        package var findings: [DirectoryWalker.Finding]

        package init(files: [RawPath], findings: [DirectoryWalker.Finding]) {
            self.files = files
            self.findings = findings
        }
    }

    /// PowerLog files under `folder` (recursively) by name: `*.PLSQL`, `*.PLSQL.gz`, `*.EPSQL`, `*.BGSQL`, any
    /// case; macOS AppleDouble `._` files and `-wal`/`-shm` siblings are skipped.
    ///
    /// The walk is `DirectoryWalker`'s, the one `scan` uses, so a subfolder that cannot be listed is reported
    /// rather than skipped, and a name that is not UTF-8 is found and still opens.
    package static func discover(in folder: RawPath, walker: DirectoryWalker = DirectoryWalker()) -> Discovery {
        let (files, findings) = walker.files(in: [folder])
        return Discovery(files: files.filter { isPowerLogName($0.lastComponent) }, findings: findings)
    }

    static func isPowerLogName(_ name: [UInt8]) -> Bool {
        guard !name.starts(with: Array("._".utf8)) else { return false }
        // ASCII case folding on the bytes: the suffixes are ASCII, the rest of the name may not be UTF-8.
        let lower = name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        return [".plsql", ".plsql.gz", ".epsql", ".bgsql"].contains { lower.ends(with: Array($0.utf8)) }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
