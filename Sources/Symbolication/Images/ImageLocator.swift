/// Resolves many addresses of one ``DebugImage``, making each function name and file path once.
///
/// ``DebugImage/locations(at:)`` makes every name and path as text per lookup; a hundred thousand addresses
/// landing on a few thousand functions spent most of their time there (`apm-inspect atos` on a large dSYM, issue
/// 16). The locator gives the same answers, each name and path made on its first use and kept, and with each a key
/// under which a caller may keep what it makes of the text (demangled, escaped, quoted) in turn.
///
/// Kept text is bounded (``maximumKeptBytes``): past it, names and paths are made per lookup again, as the image
/// makes them, so a hostile index of a million functions naming long strings costs time, not memory.
package final class ImageLocator {
    /// One location of a lookup: ``SymbolicatedLocation`` with its symbol and file as keys, their text from
    /// ``symbol(of:)`` and ``file(of:)``.
    ///
    /// Keys rather than text, because copying a kept `String` into every location (a reference count
    /// touched per frame) was a tenth of `atos`'s time once the text was made only once.
    package struct Location: Sendable, Equatable {
        /// Equal keys, equal symbols: a caller may keep what it makes of the symbol under it; -1 when not keyed.
        package var symbolKey: Int
        package var symbolOffset: UInt64
        /// Equal keys, equal files, as `symbolKey`; -1 when there is no file or it is not keyed.
        package var fileKey: Int
        package var line: Int?
        package var column: Int?
        package var isInlined: Bool
        /// The text of what the keys do not cover (a symbol resolver other than the Mach-O symbol table).
        var madeSymbol = ""
        var madeFile: String?

        /// True when the location has a file.
        package var hasFile: Bool { fileKey >= 0 || madeFile != nil }
    }

    /// A name or path of the index: not made yet, absent, made but over the budget, or made and kept.
    private enum Kept {
        case unknown
        case absent
        case present
        case text(String)
    }

    /// Most bytes of names and paths kept.
    package static let maximumKeptBytes = 64 << 20
    /// Most distinct files given a key (each costs a dictionary entry).
    package static let maximumFileKeys = 1 << 20

    package let image: DebugImage
    private let symbolTable: MachOSymbolTable?
    private var functionNames: [Kept]
    private var symbolNames: [Kept]
    private var fileKeys: [DWARFIndex.FileReference: Int] = [:]
    private var fileReferences: [DWARFIndex.FileReference] = []
    private var fileNames: [Kept] = []
    private var keptBytes = 0
    /// Reused by every lookup.
    private var references: [DWARFIndex.FrameReference] = []

    package init(image: DebugImage) {
        self.image = image
        symbolTable = image.symbols as? MachOSymbolTable
        functionNames = Array(repeating: .unknown, count: image.dwarf?.functionCount ?? 0)
        symbolNames = Array(repeating: .unknown, count: symbolTable?.count ?? 0)
    }

    /// What ``DebugImage/locations(at:)`` answers for `fileAddress`, into `locations` (emptied first, its storage
    /// kept).
    package func locations(at fileAddress: UInt64, into locations: inout [Location]) {
        locations.removeAll(keepingCapacity: true)
        if let dwarf = image.dwarf {
            dwarf.frameReferences(at: fileAddress, into: &references)
        } else {
            references.removeAll(keepingCapacity: true)
        }
        guard !references.isEmpty else {
            if symbolTable == nil {
                for found in image.symbols?.locations(at: fileAddress) ?? [] { locations.append(Self.made(found)) }
            } else if let symbol = symbolFor(fileAddress) {
                locations.append(symbol)
            }
            return
        }
        for reference in references {
            let named = hasName(reference.function)
            var location = Location(
                symbolKey: named ? Int(reference.function) : -1,
                symbolOffset: reference.offset,
                fileKey: -1,
                line: reference.line == 0 ? nil : Int(reference.line),
                column: reference.column == 0 ? nil : Int(reference.column),
                isInlined: reference.isInlined
            )
            if let file = reference.file { (location.fileKey, location.madeFile) = fileKey(file) }
            if !reference.isInlined, let symbol = symbolFor(fileAddress) {
                location.symbolKey = symbol.symbolKey
                location.madeSymbol = symbol.madeSymbol
                location.symbolOffset = symbol.symbolOffset
            } else if !named {
                // As the image: an unnamed concrete function leaves no answer, an unnamed inlined frame is skipped.
                if !reference.isInlined {
                    locations.removeAll(keepingCapacity: true)
                    return
                }
                continue
            }
            locations.append(location)
        }
    }

    /// The symbol of `location`.
    package func symbol(of location: Location) -> String {
        let key = location.symbolKey
        guard key >= 0 else { return location.madeSymbol }
        if key < functionNames.count {
            if case .text(let kept) = functionNames[key] { return kept }
            return image.dwarf?.name(ofFunction: Int32(truncatingIfNeeded: key)) ?? ""
        }
        let entry = key - functionNames.count
        guard entry < symbolNames.count else { return "" }
        if case .text(let kept) = symbolNames[entry] { return kept }
        return symbolTable?.name(ofEntry: entry) ?? ""
    }

    /// The file of `location`.
    package func file(of location: Location) -> String? {
        let key = location.fileKey
        guard key >= 0, key < fileNames.count else { return location.madeFile }
        if case .text(let kept) = fileNames[key] { return kept }
        return image.dwarf?.fileName(fileReferences[key])
    }

    /// `location` as the image gives it.
    package func plain(_ location: Location) -> SymbolicatedLocation {
        SymbolicatedLocation(
            symbol: symbol(of: location),
            symbolOffset: location.symbolOffset,
            file: file(of: location),
            line: location.line,
            column: location.column,
            isInlined: location.isInlined
        )
    }

    /// The symbol table's answer (the last, as the image takes it), keyed after the DWARF functions.
    private func symbolFor(_ fileAddress: UInt64) -> Location? {
        guard let symbolTable else {
            return image.symbols?.locations(at: fileAddress).last.map(Self.made)
        }
        guard let found = symbolTable.entry(containing: fileAddress) else { return nil }
        if case .unknown = symbolNames[found.entry] {
            let name = symbolTable.name(ofEntry: found.entry)
            symbolNames[found.entry] = keep(name) ? .text(name) : .present
        }
        return Location(
            symbolKey: functionNames.count + found.entry,
            symbolOffset: found.offset,
            fileKey: -1,
            line: nil,
            column: nil,
            isInlined: false
        )
    }

    /// A location of a resolver the keys do not cover, its text carried along.
    private static func made(_ found: SymbolicatedLocation) -> Location {
        Location(
            symbolKey: -1,
            symbolOffset: found.symbolOffset,
            fileKey: -1,
            line: found.line,
            column: found.column,
            isInlined: found.isInlined,
            madeSymbol: found.symbol,
            madeFile: found.file
        )
    }

    /// True when function `function` has a name (made and kept on first asking).
    private func hasName(_ function: Int32) -> Bool {
        guard function >= 0, Int(function) < functionNames.count else { return false }
        switch functionNames[Int(function)] {
        case .text, .present: return true
        case .absent: return false
        case .unknown:
            guard let name = image.dwarf?.name(ofFunction: function) else {
                functionNames[Int(function)] = .absent
                return false
            }
            functionNames[Int(function)] = keep(name) ? .text(name) : .present
            return true
        }
    }

    /// The key of `file`, -1 when it has no path; the path itself when there are too many files to key.
    private func fileKey(_ file: DWARFIndex.FileReference) -> (Int, String?) {
        if let key = fileKeys[file] {
            if case .absent = fileNames[key] { return (-1, nil) }
            return (key, nil)
        }
        guard fileKeys.count < Self.maximumFileKeys else { return (-1, image.dwarf?.fileName(file)) }
        let key = fileNames.count
        fileKeys[file] = key
        fileReferences.append(file)
        guard let name = image.dwarf?.fileName(file) else {
            fileNames.append(.absent)
            return (-1, nil)
        }
        fileNames.append(keep(name) ? .text(name) : .present)
        return (key, nil)
    }

    /// True when `text` fits in what may still be kept (and counts it).
    private func keep(_ text: String) -> Bool {
        let size = text.utf8.count
        guard keptBytes + size <= Self.maximumKeptBytes else { return false }
        keptBytes += size
        return true
    }
}
