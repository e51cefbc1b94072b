import APMInspectCore

/// A HAR file read a window at a time: its `log.entries` are found by one scan of the bytes and read one entry at
/// a time, so that `http --format json` holds neither the whole file nor a tape of it, only each entry's place.
///
/// The windowed read is taken only where it gives what the whole-text read gives (``HARReader/visitEntries``): a
/// file that is strict JSON around its entries, whose top level is an object with one `log` object holding one
/// `entries` array of objects, each an opaque container as the document parse would skip it. Anything else
/// (a repair, a cut-off end, an entry that is not an object, a key written with escapes) makes ``init(file:)`` give
/// nil and the caller read the file whole, as before.
final class HARWindowedFile: Sendable {
    /// The file without its entries (`"entries": []`): the header, pages and vendor fields parsed as a document
    /// with the file's own offsets up to the entries, so the diagnostics about the header say the same places.
    let skeleton: JSONDocument
    /// Each entry's byte range in the file, in file order.
    let spans: [Range<Int>]
    let file: HARFile
    let lines: HARFileLines

    /// How many bytes a window reads at least.
    static let windowSize = 4 << 20

    /// The windowed read of `file`, or nil when it does not qualify (see the type's note).
    init?(file: HARFile) {
        let limits = JSONParseOptions()
        guard file.size > 0, file.size <= limits.maxInputBytes else { return nil }
        var scan = Scan(window: Window(file: file))
        guard let found = scan.findEntries() else { return nil }
        var skeletonBytes = file.read(at: 0, count: found.entries.lowerBound)
        guard skeletonBytes.count == found.entries.lowerBound else { return nil }
        skeletonBytes += Array("[]".utf8)
        let suffix = file.read(at: found.entries.upperBound, count: file.size - found.entries.upperBound)
        guard suffix.count == file.size - found.entries.upperBound else { return nil }
        skeletonBytes += suffix
        var options = JSONParseOptions()
        options.opaqueDepth = HARReader.entryDepth
        guard let document = try? JSONDocument(bytes: skeletonBytes, options: options),
            document.diagnostics.isEmpty, document.depthCuts.isEmpty, !document.isTruncated,
            !document.isFragmentList
        else { return nil }
        // The log and entries found by the scan must be the members the reader takes, and the only ones by those
        // names.
        let root = document.root
        var logs = 0
        root.forEachMember { key, _ in if key == "log" { logs += 1 } }
        guard root.kind == .object, logs == 1, let log = root.member("log"), log.kind == .object,
            log.byteOffset == found.log
        else { return nil }
        var entryLists = 0
        log.forEachMember { key, _ in if key == "entries" { entryLists += 1 } }
        guard entryLists == 1, let entries = log.member("entries"), entries.kind == .array, entries.count == 0,
            entries.byteOffset == found.entries.lowerBound
        else { return nil }
        skeleton = document
        spans = found.spans
        self.file = file
        lines = HARFileLines(file: file)
    }

    /// Hands each entry to `body` in file order: its position, the entry parsed on its own (nil when its bytes are
    /// not JSON) and its span.
    func forEachEntry(_ body: (Int, JSONElement?, Range<Int>) -> Void) {
        var window = Window(file: file)
        for (position, span) in spans.enumerated() {
            body(position, element(window.bytes(span), at: span.lowerBound, locating: true), span)
        }
    }

    /// The entry at `span` parsed on its own, read from the file (for a second pass: ``HARReplay``).
    func entry(at span: Range<Int>) -> JSONElement? {
        let bytes = file.read(at: span.lowerBound, count: span.count)
        guard bytes.count == span.count else { return nil }
        return element(bytes, at: span.lowerBound, locating: false)
    }

    /// What `JSONElement/expanded()` makes of an opaque entry at `offset` of the whole text: a document with the
    /// entry's bytes whose origin is its offset, and its line when the parse has findings to place.
    private func element(_ bytes: [UInt8], at offset: Int, locating: Bool) -> JSONElement? {
        let options = JSONParseOptions()
        guard let document = try? JSONDocument(bytes: bytes, options: options, origin: TextOrigin(byteOffset: offset))
        else { return nil }
        guard locating, !document.diagnostics.isEmpty else { return document.root }
        let line = lines.location(ofByte: offset).line ?? 1
        let origin = TextOrigin(byteOffset: offset, line: line)
        return (try? JSONDocument(bytes: bytes, options: options, origin: origin))?.root
    }

    /// A stretch of the file held in memory.
    struct Window {
        let file: HARFile
        var data: [UInt8] = []
        /// The file offset of `data[0]`.
        var start = 0

        init(file: HARFile) {
            self.file = file
        }

        var end: Int { start + data.count }

        /// Reads the window again from `offset`, at least `count` bytes (the rest of the file when shorter).
        mutating func load(from offset: Int, count: Int) {
            file.read(at: offset, count: max(count, HARWindowedFile.windowSize), into: &data)
            start = offset
        }

        /// The byte at `offset`; nil past the end of the file (or of what could be read).
        mutating func byte(at offset: Int) -> UInt8? {
            if offset < start || offset >= end { load(from: offset, count: HARWindowedFile.windowSize) }
            guard offset >= start, offset < end else { return nil }
            return data[offset - start]
        }

        /// The bytes of `span`.
        mutating func bytes(_ span: Range<Int>) -> [UInt8] {
            if span.lowerBound < start || span.upperBound > end { load(from: span.lowerBound, count: span.count) }
            guard span.lowerBound >= start, span.upperBound <= end else { return [] }
            return Array(data[(span.lowerBound - start)..<(span.upperBound - start)])
        }

        /// The offset after the bracket closing the one at `offset`, as the document parse skips an opaque
        /// container; the window is widened until the container ends in it or the file does.
        mutating func containerEnd(from offset: Int) -> Int? {
            if offset < start || offset >= end { load(from: offset, count: HARWindowedFile.windowSize) }
            while offset >= start, offset < end {
                if let found = JSONContainerSkipping.end(in: data, from: offset - start, limit: data.count) {
                    return start + found
                }
                let held = end - offset
                guard end < file.size else { return nil }
                load(from: offset, count: 2 * held)
                // A read that failed part way gives no more than before: the scan would never end.
                guard end - offset > held else { return nil }
            }
            return nil
        }
    }

    /// The scan for `log.entries`: the top-level members and `log`'s are stepped over, not parsed (the skeleton's
    /// parse checks them after), until the `entries` array, whose elements are skipped as opaque containers.
    struct Scan {
        var window: Window

        /// Where `log`'s object starts, the entries array's range, and each entry's span.
        struct Found {
            var log: Int
            var entries: Range<Int>
            var spans: [Range<Int>]
        }

        mutating func findEntries() -> Found? {
            var p = skipWhitespace(0)
            guard window.byte(at: p) == UInt8(ascii: "{") else { return nil }
            p += 1
            while true {
                guard let found = member(at: p) else { return nil }
                let key = found.key
                p = found.value
                if isKey(key, Self.logKey), window.byte(at: p) == UInt8(ascii: "{") {
                    return findEntries(inLogAt: p)
                }
                guard let next = nextMember(after: p) else { return nil }
                p = next
            }
        }

        private mutating func findEntries(inLogAt log: Int) -> Found? {
            var p = log + 1
            while true {
                guard let found = member(at: p) else { return nil }
                let key = found.key
                p = found.value
                if isKey(key, Self.entriesKey), window.byte(at: p) == UInt8(ascii: "[") {
                    guard let found = entries(at: p) else { return nil }
                    return Found(log: log, entries: p..<found.end, spans: found.spans)
                }
                guard let next = nextMember(after: p) else { return nil }
                p = next
            }
        }

        /// The entries of the array at `open` and the offset after its `]`; nil unless every element is an
        /// object and the commas are where strict JSON puts them.
        private mutating func entries(at open: Int) -> (spans: [Range<Int>], end: Int)? {
            var spans: [Range<Int>] = []
            var p = skipWhitespace(open + 1)
            if window.byte(at: p) == UInt8(ascii: "]") { return (spans, p + 1) }
            while true {
                guard window.byte(at: p) == UInt8(ascii: "{"), let end = window.containerEnd(from: p) else {
                    return nil
                }
                spans.append(p..<end)
                p = skipWhitespace(end)
                let next = window.byte(at: p)
                if next == UInt8(ascii: "]") { return (spans, p + 1) }
                guard next == UInt8(ascii: ",") else { return nil }
                p = skipWhitespace(p + 1)
            }
        }

        /// The key of the member at `p` (after white space) as a range of the file, and the offset of its value.
        private mutating func member(at p: Int) -> (key: Range<Int>, value: Int)? {
            let quote = skipWhitespace(p)
            guard window.byte(at: quote) == UInt8(ascii: "\""), let end = stringEnd(from: quote) else { return nil }
            let colon = skipWhitespace(end)
            guard window.byte(at: colon) == UInt8(ascii: ":") else { return nil }
            return ((quote + 1)..<(end - 1), skipWhitespace(colon + 1))
        }

        /// Steps over the value at `p` and its comma: the offset of the next member, nil at the object's end or when
        /// the bytes are not what a member list holds.
        private mutating func nextMember(after p: Int) -> Int? {
            guard let first = window.byte(at: p) else { return nil }
            var end: Int
            switch first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard let found = window.containerEnd(from: p) else { return nil }
                end = found
            case UInt8(ascii: "\""):
                guard let found = stringEnd(from: p) else { return nil }
                end = found
            default:
                end = p
                while let b = window.byte(at: end), !JSONContainerSkipping.isWhitespace(b), b != UInt8(ascii: ","),
                    b != UInt8(ascii: "}"), b != UInt8(ascii: "]")
                {
                    end += 1
                }
                guard end > p else { return nil }
            }
            let comma = skipWhitespace(end)
            guard window.byte(at: comma) == UInt8(ascii: ",") else { return nil }
            return comma + 1
        }

        /// The offset after the closing quote of the string whose opening quote is at `quote`.
        private mutating func stringEnd(from quote: Int) -> Int? {
            var p = quote + 1
            while let b = window.byte(at: p) {
                if b == UInt8(ascii: "\"") { return p + 1 }
                if b < 0x20 { return nil }
                p += b == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        }

        private mutating func skipWhitespace(_ from: Int) -> Int {
            var p = from
            while let b = window.byte(at: p), JSONContainerSkipping.isWhitespace(b) { p += 1 }
            return p
        }

        static let logKey = Array("log".utf8)
        static let entriesKey = Array("entries".utf8)

        /// True when the key's raw bytes are `name` (a key written with escapes is not, and the read declines).
        private mutating func isKey(_ key: Range<Int>, _ name: [UInt8]) -> Bool {
            guard key.count == name.count else { return false }
            for (k, byte) in name.enumerated() where window.byte(at: key.lowerBound + k) != byte { return false }
            return true
        }
    }
}
