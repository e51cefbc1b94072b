import APMInspectCore

/// Where an indexed slice's file is: on disk, an entry of a zip archive (read into memory when opened, never
/// extracted), or an image of a dyld shared cache (its tables read from the cache's files when opened).
public enum DSYMLocation: Sendable, Hashable, CustomStringConvertible {
    case file(RawPath)
    case zipEntry(archive: RawPath, index: Int, name: String)
    /// An image of the dyld shared cache whose main file is `cache`; `name` is its install name (for messages).
    case dyldCacheImage(cache: RawPath, name: String)

    /// The text people see, as the command prints it.
    public var description: String {
        switch self {
        case .file(let path): path.display
        case .zipEntry(let archive, _, let name): archive.display + ":" + TerminalText.escaped(name)
        case .dyldCacheImage(let cache, let name): cache.display + ":" + TerminalText.escaped(name)
        }
    }
}
