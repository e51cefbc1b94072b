import APMInspectCore

// The codes of symbolication: finding dSYMs, reading their Mach-O files, and rewriting reports with what they say.
// Each doc comment says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py
// turns them into docs/diagnostics.md.
extension Diagnostic.Code {
    // MARK: - Finding dSYMs

    /// A path given to search for dSYMs cannot be opened: nothing under it was searched.
    /// Example: /tmp/Symbols: cannot open: No such file or directory
    package static let dsymCannotOpen = Self("dsym.cannot-open")
    /// A folder holds more files than are searched: dSYMs among the rest are not found, so their images stay
    /// unsymbolicated.
    /// Example: /tmp/Symbols: more than 100000 files: the rest were not searched for dSYMs
    package static let dsymFileLimit = Self("dsym.file-limit")
    /// No dSYM or Mach-O file was found where symbols were looked for: nothing can be symbolicated.
    /// Example: /tmp/Symbols: no dSYM or Mach-O file found
    package static let dsymNoneFound = Self("dsym.none-found")
    /// A file given as symbols, or inside a dSYM's DWARF folder, is not a Mach-O file (nor a dSYM or a zip of them):
    /// it is skipped.
    /// Example: /tmp/App.dSYM/Contents/Info.plist: not a dSYM, a Mach-O file or a zip of dSYMs
    package static let dsymNotMachO = Self("dsym.not-macho")
    /// A zip given as symbols cannot be read as a zip archive: nothing in it was searched.
    /// Example: /tmp/dSYMs.zip: not a readable zip archive: no zip end-of-central-directory record
    package static let dsymUnreadableZip = Self("dsym.unreadable-zip")
    /// A zip entry's name leads out of its folder: it is read in memory only, never written anywhere.
    /// Example: s.zip:../A.dSYM/Contents/Resources/DWARF/A: an entry name that leaves its folder (read in memory only)
    package static let dsymUnsafeZipEntry = Self("dsym.unsafe-zip-entry")
    /// A zip given as symbols holds no dSYM: nothing in it is used.
    /// Example: /tmp/logs.zip: a zip archive without dSYMs (no `Contents/Resources/DWARF/`)
    package static let dsymZipWithoutDSYMs = Self("dsym.zip-without-dsyms")
    /// The index of a folder source could not be kept in the symbol cache: this run is complete, the next one reads
    /// the folder's files again instead of reusing what this one found.
    /// Example: the index of /srv/dsyms could not be kept in the symbol cache (/home/u/.cache/apm-inspect/symbols/folders/0f3a….json): Permission denied; the next run reads the folder again
    package static let symbolCacheUnwritable = Self("symbols.cache-unwritable")
    /// A dyld shared cache given as symbols has a header, table or offset that lies outside its files or cannot
    /// be a cache's: the cache (or, when opened, the image) is not used, and its frames stay as the report has them.
    /// Example: /tmp/dyld_shared_cache_arm64e: the 2000-image text table (64000 bytes at 4096) lies past the end of the 8192-byte file /tmp/dyld_shared_cache_arm64e
    package static let symbolsDyldCacheTruncated = Self("symbols.dyld-cache-truncated")
    /// A subcache or the `.symbols` file of a dyld shared cache is missing or is not the one the cache names (another
    /// UUID): images whose text is in a missing subcache stay unnamed, and without the `.symbols` file only
    /// exported and global symbols name frames.
    /// Example: /tmp/dyld_shared_cache_arm64e: the symbols file /tmp/dyld_shared_cache_arm64e.symbols cannot be used (cannot open: No such file or directory): only exported and global symbols name frames
    package static let symbolsDyldCacheMissingFile = Self("symbols.dyld-cache-missing-file")
    /// A dyld shared cache file given by itself lists no images: it is a subcache or the `.symbols` file, read
    /// through the main cache file it belongs to.
    /// Example: /tmp/dyld_shared_cache_arm64e.01: a dyld shared cache file that lists no images (a subcache or .symbols file): give the main cache file, or its folder
    package static let symbolsDyldCacheNoImages = Self("symbols.dyld-cache-no-images")

    // MARK: - Mach-O

    /// Symbols of a Mach-O slice point outside its string table or into a section it does not have: they are
    /// skipped, so addresses they would name fall to the symbol before them.
    /// Example: 3 symbols skipped: 2 named outside the string table, 1 in a section the slice does not have
    package static let machoSymbolsSkipped = Self("macho.symbols-skipped")

    // MARK: - Reports

    /// A dSYM matched an image but has no function at some of its frames' addresses: those frames stay
    /// unsymbolicated (a stripped or mismatched build).
    /// Example: the dSYM for image A (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427) has no function at 2 of its frames' addresses: they stay unsymbolicated
    package static let symbolicateNoFunction = Self("symbolicate.no-function")
    /// No dSYM was found for an image, so its frames stay unsymbolicated: a warning for the app's own images, a note
    /// for system images, whose symbols are in Xcode's DeviceSupport folder for the report's OS build (given with
    /// `--symbols` or `--dsym`).
    /// Example: no dSYM for image App (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427, arm64): its frames stay unsymbolicated
    package static let symbolicateMissingDSYM = Self("symbolicate.missing-dsym")
    /// The dSYM for an image was found but cannot be read: its frames stay unsymbolicated.
    /// Example: the dSYM for image App (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427) cannot be read: the fat header is cut off; its frames stay unsymbolicated
    package static let symbolicateUnreadableDSYM = Self("symbolicate.unreadable-dsym")
    /// A report's JSON body cannot be rewritten in place: the report is written as it was, without symbols.
    /// Example: the JSON body cannot be rewritten in place: the report is written unchanged
    package static let symbolicateBodyNotRewritten = Self("symbolicate.body-not-rewritten")
    /// A KSCrash report is not rewritten with symbols (only `--format json` gives it symbolicated): it is written as
    /// it was.
    /// Example: a KSCrash report is written unchanged: --format json gives it symbolicated
    package static let symbolicateKSCrashUnchanged = Self("symbolicate.kscrash-unchanged")
    /// A spindump hang report is not rewritten with symbols (its call trees are not a crash report's layout): it
    /// is written as it was; only `--format json` gives it symbolicated.
    /// Example: a spindump hang report is written unchanged: --format json gives it symbolicated
    package static let symbolicateSpindumpUnchanged = Self("symbolicate.spindump-unchanged")
}
