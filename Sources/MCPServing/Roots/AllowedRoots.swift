import APMInspectCore
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folders a client may have read: the current folder, and each `--root` the user gave at start-up.
///
/// A model picks the paths of a tool call, and a prompt can steer it: every path is resolved to its real path
/// (links followed, `..` and `.` gone) before it is compared, so neither `root/../etc/passwd` nor a link in a root
/// that points out of it reaches a file outside. A folder is checked file by file as the commands would walk it,
/// since the walk follows links too. The check happens before the command reads; a file swapped for a link between
/// the two is not guarded against (the server reads what the local user can read anyway).
package struct AllowedRoots: Sendable, Equatable {
    /// The real paths of the folders, in the order given.
    package let folders: [String]

    /// The real paths of `paths`; a failure for one that does not resolve or is not a folder.
    package init(folders paths: [String]) throws(ToolFailure) {
        var folders: [String] = []
        for path in paths {
            guard let real = Self.realPath(RawPath(path)) else {
                throw ToolFailure(
                    .mcpPathUnresolvable,
                    "cannot resolve \(path): \(String(cString: strerror(errno)))",
                    path: path
                )
            }
            var info = stat()
            guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw ToolFailure(.mcpInvalidArguments, "\(path) is not a folder", path: path)
            }
            if !folders.contains(real) { folders.append(real) }
        }
        self.folders = folders
    }

    /// True when one of the folders is `/`, which lets a client read everything the user can.
    package var allowsEverything: Bool { folders.contains("/") }

    /// True when the real path `real` is one of the folders or under one.
    package func contains(real: String) -> Bool {
        folders.contains { folder in
            real == folder || real.hasPrefix(folder == "/" ? "/" : folder + "/")
        }
    }

    /// Nil when `path`, and every file under it when it is a folder, resolves inside the folders.
    package func check(_ path: String) -> ToolFailure? {
        if let failure = checkOne(RawPath(path), shown: path) { return failure }
        guard PathWalker.isFolder(path) else { return nil }
        for input in PathWalker.inputs(in: [path], note: { _ in }) {
            // A file that cannot be walked or resolved is not read either: the command says so in its output.
            guard case .file(let file) = input, let real = Self.realPath(file) else { continue }
            if !contains(real: real) { return outside(file.display, real: real) }
        }
        return nil
    }

    /// Nil when the real path of `raw` is inside the folders.
    package func checkOne(_ raw: RawPath, shown: String) -> ToolFailure? {
        guard let real = Self.realPath(raw) else {
            let reason = String(cString: strerror(errno))
            // A path that does not resolve is refused as outside when the nearest folder above it that does resolve
            // is outside: whether `../../etc/missing` exists is none of the client's business.
            if let ancestor = Self.nearestResolvableAncestor(raw.bytes), !contains(real: ancestor) {
                return outside(shown, real: ancestor)
            }
            return ToolFailure(.mcpPathUnresolvable, "cannot resolve \(shown): \(reason)", path: shown)
        }
        guard contains(real: real) else { return outside(shown, real: real) }
        var info = stat()
        let type = stat(real, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard type == S_IFREG || type == S_IFDIR else {
            return ToolFailure(
                .mcpPathNotAFile,
                "\(shown) is neither a file nor a folder (a FIFO, a socket or a device would hold the server)",
                path: shown
            )
        }
        return nil
    }

    private func outside(_ shown: String, real: String) -> ToolFailure {
        let leadsTo = shown == real ? "" : " (it leads to \(real))"
        let allowed = folders.joined(separator: ", ")
        return ToolFailure(
            .mcpPathOutsideRoots,
            "\(shown)\(leadsTo) is outside the allowed folders (\(allowed)); start the server with --root to add one",
            path: shown
        )
    }

    /// The real path of the longest leading part of `bytes`, cut at a `/`, that resolves; nil when none does.
    static func nearestResolvableAncestor(_ bytes: [UInt8]) -> String? {
        var end = bytes.count
        while end > 0 {
            guard let slash = bytes[..<end].lastIndex(of: UInt8(ascii: "/")) else {
                return realPath(RawPath("."))
            }
            let prefix = slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash])
            if let real = realPath(RawPath(bytes: prefix)) { return real }
            end = slash
        }
        return nil
    }

    /// The path with every link, `.` and `..` resolved, or nil (errno says why).
    package static func realPath(_ raw: RawPath) -> String? {
        guard let resolved = raw.withCString({ realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
