#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `-o FOLDER` of a command that writes one file per input (`translate`, `anonymize`): the folder made when
/// missing, and each file's name taken from its input's, numbered when two inputs share it.
package enum OutputFolder {
    /// Makes `folder` when it is missing; why it cannot be used otherwise.
    package static func prepare(_ folder: String) -> String? {
        var info = stat()
        if stat(folder, &info) == 0 {
            return info.st_mode & S_IFMT == S_IFDIR ? nil : "-o names a file; several reports need a folder"
        }
        guard mkdir(folder, 0o755) == 0 else { return "cannot make the folder: \(String(cString: strerror(errno)))" }
        return nil
    }

    /// The last component of the input `path` (`stdin` for standard input) made a plain file name: control
    /// characters replaced, never empty nor hidden, so nothing lands outside the folder.
    package static func baseName(of path: String) -> String {
        var base = path == PathWalker.standardInputArgument ? "stdin" : String(path.split(separator: "/").last ?? "")
        base = String(base.map { character in (character.asciiValue ?? 0x20) < 0x20 ? "_" : character })
        if base.isEmpty || base.hasPrefix(".") || base == ".." { base = "report" + base }
        return base
    }

    /// `base + suffix`, or `base-2 + suffix`, `base-3 + suffix` … when taken; the name is then taken.
    package static func uniqueName(_ base: String, suffix: String, taken: inout Set<String>) -> String {
        var name = base + suffix
        var number = 2
        while taken.contains(name) {
            name = "\(base)-\(number)\(suffix)"
            number += 1
        }
        taken.insert(name)
        return name
    }
}
