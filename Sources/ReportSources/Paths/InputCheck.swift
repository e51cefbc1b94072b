import APMInspectCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The failures every command can meet before it reads a file, in one wording for all of them, with the hint for
/// the next step where there is one.
package enum InputCheck {
    /// The words for a file of no bytes (ReportInspector's).
    package static let emptyFileMessage = "the file is empty"

    /// Why the file at `path` cannot be read, found before it is opened.
    ///
    /// It does not exist ("cannot open: …", FileReading's words) or is a regular file of no bytes. Nil otherwise,
    /// and for pipes and devices, which are only known once read.
    package static func problem(atPath path: String) -> String? {
        problem(at: RawPath(path))
    }

    /// The same for a path kept as bytes.
    package static func problem(at path: RawPath) -> String? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else {
            return "cannot open: \(String(cString: strerror(errno)))"
        }
        if info.st_mode & S_IFMT == S_IFREG && info.st_size == 0 { return emptyFileMessage }
        return nil
    }

    /// The hint for an archive given to a command that reads one report: `scan` reads what is inside.
    package static func archiveHint(atPath path: String) -> String? {
        guard ArchiveScanner.isArchive(atPath: path) else { return nil }
        return archiveHintMessage
    }

    /// The same hint for bytes already read: standard input and FIFOs, which cannot be sniffed before they are
    /// read, so that `cat x.tar.gz | apm-inspect translate -` says what `apm-inspect translate x.tar.gz` says.
    package static func archiveHint(bytes: [UInt8]) -> String? {
        guard ArchiveScanner.isArchive(prefix: Array(bytes.prefix(65_536))) else { return nil }
        return archiveHintMessage
    }

    static let archiveHintMessage =
        "a tar or tar.gz archive (a sysdiagnose?): `apm-inspect scan` reads the reports inside it"
}
