import APMInspectCore

/// Where an indexed slice's file is: on disk, or an entry of a zip archive (read into memory when opened, never
/// extracted).
public enum DSYMLocation: Sendable, Hashable, CustomStringConvertible {
    case file(RawPath)
    case zipEntry(archive: RawPath, index: Int, name: String)

    /// The text people see, as the command prints it.
    public var description: String {
        switch self {
        case .file(let path): path.display
        case .zipEntry(let archive, _, let name): archive.display + ":" + TerminalText.escaped(name)
        }
    }
}
