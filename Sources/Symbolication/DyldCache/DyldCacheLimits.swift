/// Bounds on what the dyld shared cache reader believes of a cache's counts and sizes.
///
/// A cache's tables are read from disk in windows; every count comes from the file and could ask for gigabytes,
/// so each is capped well above what Apple's caches hold (about 4,000 images, a few hundred thousand local symbols
/// per large framework) and a larger one is refused as damage.
package enum DyldCacheLimits {
    /// Most images one cache may list.
    package static let maxImages = 100_000
    /// Most mappings of one cache file.
    package static let maxMappings = 64
    /// Most subcache files one cache may name.
    package static let maxSubCaches = 256
    /// Most symbols (exported or local) one image may have.
    package static let maxSymbolsPerImage = 4_000_000
    /// Largest window of a string table read at once for one image's names; names past it are read one by one.
    package static let maxStringWindow = 64 << 20
    /// Most bytes of one image's Mach-O header and load commands.
    package static let maxHeaderBytes = 1 << 20
    /// Bytes of a cache file's header read first: every field used lies in them.
    package static let headerBytes = 0x200
}
