/// Anything that finds the debug information of a binary image by its UUID: the dSYM store, or a test's table.
///
/// Lookups are by UUID (and architecture, for a fat file holding several slices), never by name: two builds of
/// one app share every name and differ only there.
public protocol SymbolSource: Sendable {
    /// The image for `uuid` (32 lower-case hex digits, no dashes) and `arch` (`arm64`, `x86_64` …; nil when the
    /// report does not say).
    func image(uuid: String, arch: String?) -> SymbolLookup
}

/// What a ``SymbolSource`` found for one UUID.
public enum SymbolLookup: Sendable {
    case found(SymbolImage)
    /// No debug information with this UUID was given.
    case missing
    /// Debug information with this UUID was found but cannot be read.
    case failed(SymbolicationError)
}
