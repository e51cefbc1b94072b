import APMInspectCore

/// Reads any supported capture: HAR (plain, `.zhar`, `.har.gz`), Charles `.chlsj`/`.chlsx`, pcap and pcapng.
///
/// The format is sniffed from the content, never from the file name.
public struct HTTPCaptureReader: Sendable {
    /// What is kept of each capture and the limits reading stays within.
    public var options: HTTPCaptureOptions

    /// A reader with the given limits (the defaults suit any capture a phone writes).
    public init(options: HTTPCaptureOptions = HTTPCaptureOptions()) {
        self.options = options
    }

    /// What was read, with the non-fatal findings.
    public struct Result: Sendable, Equatable {
        /// The capture, as complete as the input allowed.
        public var capture: HTTPCapture
        /// What the reader noticed while reading: recovered damage, unknown shapes, limits reached.
        public var diagnostics: [Diagnostic]

        package init(capture: HTTPCapture, diagnostics: [Diagnostic]) {
            self.capture = capture
            self.diagnostics = diagnostics
        }
    }

    /// The capture kind of `bytes` when it is one this module reads, nil otherwise; cheap for pcap and XML, and
    /// for JSON it parses only far enough to look at the top-level keys.
    package static func recognise(_ bytes: [UInt8]) -> FileKind? {
        recognise(bytes, format: ContentSniffer.format(of: bytes))
    }

    /// ``recognise(_:)`` for bytes whose `ContentSniffer` format the caller has (`format` must be what the
    /// sniffer says of `bytes`): the inspector sniffs each file once for all its families.
    package static func recognise(_ bytes: [UInt8], format: ContentFormat) -> FileKind? {
        switch format {
        case .pcap, .pcapng: return .packetCapture
        case .xml: return CharlesXMLReader.looksLikeCharles(bytes) ? .charlesSession : nil
        case .json:
            return recogniseJSON(bytes)
        case .zlib, .gzip:
            // Inflate only the top of the document (bounded whatever the ratio), cheap for a large compressed
            // database that is not a capture.
            guard let inflated = ContentSniffer.inflatedPrefix(of: bytes, count: 64 << 10) else { return nil }
            guard ContentSniffer.format(of: inflated) == .json else { return nil }
            return looksLikeHARText(inflated) ? .httpArchive : nil
        default:
            return nil
        }
    }

    private static func recogniseJSON(_ bytes: [UInt8]) -> FileKind? {
        // Nearly every HAR starts with its "log" key: no parse needed to say so.
        if looksLikeHARText(bytes) { return .httpArchive }
        var options = JSONParseOptions()
        options.opaqueDepth = 2
        let root: JSONElement
        do {
            root = try JSONDocument(bytes: bytes, options: options).root
        } catch {
            guard let head = headBefore(error, in: bytes[...], from: 0) else { return nil }
            root = head
        }
        if HARReader.looksLikeHAR(root) { return .httpArchive }
        var iterator = root.elements.makeIterator()
        if root.kind == .array, let first = iterator.next() {
            var expanded = first
            do {
                expanded = try first.expanded()
            } catch {
                expanded = headBefore(error, in: first.rawBytes, from: first.byteOffset) ?? first
            }
            if expanded.kind == .object, expanded.member("host") != nil,
                expanded.member("times") != nil || expanded.member("durations") != nil
            {
                return .charlesSession
            }
        }
        return nil
    }

    /// A value nested past the depth limit, read from its bytes before the too-deep part.
    ///
    /// At most the first 64 KiB are read, leniently, as a cut-off document: enough for `inspect` to judge the shape
    /// and say what `http` says (a capture nested too deep) instead of calling the file unknown. `from` is where
    /// `bytes` start in the file.
    private static func headBefore(_ error: InputError, in bytes: ArraySlice<UInt8>, from: Int) -> JSONElement? {
        guard error.code == .tooDeep, let offset = error.location?.byteOffset else { return nil }
        let end = min(offset - from, bytes.count, 1 << 16)
        guard end > 0 else { return nil }
        // The bytes before the error are as deep as the limit, which the builder counts to the error's position:
        // read with twice the limit, which they cannot reach.
        var options = JSONParseOptions()
        options.maxDepth *= 2
        return try? JSONDocument(bytes: Array(bytes.prefix(end)), options: options).root
    }

    /// A `"log"` key right at the start of a JSON text: a HAR (or a broken one).
    private static func looksLikeHARText(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
        return head.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "{" }
            .hasPrefix("\"log\"")
    }

    /// Reads a capture from its bytes.
    ///
    /// - Throws: ``HTTPCaptureError`` when nothing can be read: empty input, broken JSON/XML structure, a
    ///   compressed wrapper that will not open, or content that is not a capture.
    public func read(_ bytes: [UInt8]) throws(HTTPCaptureError) -> Result {
        try read(bytes, streaming: false) { _ in }
    }

    /// Reads a capture from its bytes, handing each transaction to `body` instead of keeping it.
    ///
    /// HAR entries are built and handed over one at a time, in file order; Charles sessions and packet captures
    /// are read whole first and handed over in start-time order. The result's capture holds no transactions and
    /// the default summary.
    ///
    /// - Throws: as ``read(_:)``.
    package func visit(_ bytes: [UInt8], _ body: (HTTPTransaction) -> Void) throws(HTTPCaptureError) -> Result {
        try read(bytes, streaming: true, body)
    }

    /// The health figures of a capture, from transactions visited one at a time (``visit(_:_:)``) into an
    /// ``HTTPSummaryAccumulator``: for a text summary, in memory bounded by `limits` besides the file.
    ///
    /// The capture returned holds only the slowest transactions, slowest first, and its `summary.slowest` counts
    /// positions in them; `summary.requests` and `summary.encryptedConnections` count every transaction visited. The
    /// accumulator's diagnostics (hosts
    /// folded, percentiles approximated) follow the reader's.
    ///
    /// - Throws: as ``read(_:)``.
    package func readSummary(
        _ bytes: [UInt8],
        limits: HTTPSummaryAccumulator.Limits = HTTPSummaryAccumulator.Limits()
    ) throws(HTTPCaptureError) -> Result {
        var accumulator = HTTPSummaryAccumulator(limits: limits)
        // A HAR's entries are built without their vendor fields and headers, which the figures do not read (made and
        // dropped for every entry they were a third of the time); the few slowest kept are rebuilt in full after.
        var rebuildInFull: ((inout [HTTPTransaction]) -> Void)?
        var result = try decompressing(bytes) { (plain) throws(HTTPCaptureError) in
            try readUncompressed(plain, streaming: true) {
                accumulator.add($0, order: $0.index)
            } har: { (document) throws(HTTPCaptureError) in
                let reader = HARReader(options: options)
                var positions: [Int] = []
                let (capture, diagnostics, conventions) = try reader.visitEntries(document, keepsVerbatim: false) {
                    accumulator = HTTPSummaryAccumulator(limits: limits)
                    positions.removeAll(keepingCapacity: true)
                } _: { transaction, entry in
                    positions.append(entry.position)
                    accumulator.add(transaction, order: transaction.index)
                }
                rebuildInFull = { transactions in
                    reader.rebuild(&transactions, document: document, positions: positions, conventions: conventions)
                }
                return Result(capture: capture, diagnostics: diagnostics)
            }
        }
        var (summary, slowest, diagnostics) = accumulator.finished(slowestAsPositions: true)
        rebuildInFull?(&slowest)
        result.capture.transactions = slowest
        result.capture.summary = summary
        result.diagnostics += diagnostics
        return result
    }

    private func read(
        _ bytes: [UInt8],
        streaming: Bool,
        _ body: (HTTPTransaction) -> Void
    ) throws(HTTPCaptureError) -> Result {
        try decompressing(bytes) { (plain) throws(HTTPCaptureError) in
            try readUncompressed(plain, streaming: streaming, body)
        }
    }

    /// Reads a capture for writing out one transaction at a time: the capture, diagnostics and transactions of
    /// ``read(_:)``, with a HAR file's transactions rebuilt from `bytes` as they are handed over
    /// (``HTTPCaptureStream``), so that `--format json` on a large HAR holds the file and not every transaction.
    ///
    /// - Throws: as ``read(_:)``.
    package func readStream(_ bytes: [UInt8]) throws(HTTPCaptureError) -> HTTPCaptureStream {
        try readStream(bytes, spool: nil)
    }

    /// ``readStream(_:)`` that encodes a HAR file's full transactions into `spool` as they are built.
    ///
    /// They go in in file order. When the spool takes them all (``HTTPCaptureStream/isSpooled``), the transactions
    /// are written from it (``HTTPTransactionSpool/writeTransactions(of:to:)``) and no entry is parsed and built a
    /// second time. Other formats, and a spool that fails part way (a full disk), leave the stream as
    /// ``readStream(_:)`` makes it.
    ///
    /// - Throws: as ``read(_:)``.
    package func readStream(_ bytes: [UInt8], spool: HTTPTransactionSpool?) throws(HTTPCaptureError)
        -> HTTPCaptureStream
    {
        try decompressing(bytes) { (plain) throws(HTTPCaptureError) in try streamUncompressed(plain, spool: spool) }
    }

    /// What ``readStream(_:spool:)`` makes of the HAR file at `path`, read a window at a time.
    ///
    /// Each entry is read from the file when it is built, so neither the whole file nor a tape of it is held
    /// (``HARWindowedFile``). Nil when the file is not one the windowed read takes, a HAR that is strict JSON around
    /// its entries in a regular file: the caller then reads the file whole and calls ``readStream(_:spool:)``, which
    /// gives what it always gave (standard input, compressed and broken captures, other formats).
    ///
    /// - Throws: as ``read(_:)``.
    package func readStream(path: RawPath, spool: HTTPTransactionSpool?) throws(HTTPCaptureError)
        -> HTTPCaptureStream?
    {
        guard let file = HARFile(path: path), let windowed = HARWindowedFile(file: file) else { return nil }
        return try HARReader(options: options).stream(windowed.skeleton, windowed: windowed, spool: spool)
    }

    /// What `read` makes of `bytes`, inflated first when they are zlib or gzip: the result then names the
    /// compression and, when the compressed data was cut short, says so first.
    private func decompressing<Read: CaptureReadResult>(
        _ bytes: [UInt8],
        _ read: ([UInt8]) throws(HTTPCaptureError) -> Read
    ) throws(HTTPCaptureError) -> Read {
        let format = ContentSniffer.format(of: bytes)
        switch format {
        case .empty:
            throw HTTPCaptureError(.empty, "the file is empty")
        case .zlib, .gzip:
            let inflated = try inflate(bytes, format: format)
            var result = try read(inflated.bytes)
            result.capture.compression = format.rawValue
            if inflated.isTruncated { result.diagnostics.insert(Self.cutOff(format), at: 0) }
            return result
        default:
            return try read(bytes)
        }
    }

    private func streamUncompressed(
        _ bytes: [UInt8],
        spool: HTTPTransactionSpool?
    ) throws(HTTPCaptureError) -> HTTPCaptureStream {
        switch ContentSniffer.format(of: bytes) {
        case .pcap, .pcapng, .xml, .empty: break
        default:
            // The routing of ``readWhole(_:)``: JSON is a HAR unless it is a Charles session.
            let document = try harDocument(bytes)
            if !CharlesJSONReader.looksLikeCharles(document.root) {
                return try HARReader(options: options).stream(document, spool: spool)
            }
        }
        var result = try readWhole(bytes)
        let transactions = result.capture.transactions
        result.capture.transactions = []
        return HTTPCaptureStream(capture: result.capture, diagnostics: result.diagnostics, storage: .held(transactions))
    }

    /// The inflated bytes of a zlib or gzip capture, within ``HTTPCaptureOptions/maxDecompressedBytes``.
    private func inflate(_ bytes: [UInt8], format: ContentFormat) throws(HTTPCaptureError) -> Inflate.Result {
        let limit = ExpansionLimit(maxBytes: options.maxDecompressedBytes)
        do {
            return try Inflate.decompress(bytes, maxOutputBytes: limit.bytes(forCompressed: bytes.count))
        } catch {
            let reason = error.code == .tooLarge ? limit.describe(compressed: bytes.count) : error.message
            throw HTTPCaptureError(.compression, "cannot decompress the \(format.rawValue) capture: \(reason)")
        }
    }

    private static func cutOff(_ format: ContentFormat) -> Diagnostic {
        Diagnostic(
            .warning,
            .httpCompressedStreamCutOff,
            "the \(format.rawValue) stream is cut off; read what it holds"
        )
    }

    /// With `har`, a HAR document is read by it instead of being visited into `body`.
    private func readUncompressed(
        _ bytes: [UInt8],
        streaming: Bool,
        _ body: (HTTPTransaction) -> Void,
        har: ((JSONDocument) throws(HTTPCaptureError) -> Result)? = nil
    ) throws(HTTPCaptureError) -> Result {
        guard streaming else { return try readWhole(bytes) }
        switch ContentSniffer.format(of: bytes) {
        case .xml:
            let (capture, diagnostics) = try CharlesXMLReader(options: options).visit(bytes, body)
            return Result(capture: capture, diagnostics: diagnostics)
        case .pcap, .pcapng, .empty: break
        default:
            // A Charles session is an array: its transactions are parsed one at a time, as HAR entries are.
            if Self.startsWithArray(bytes), let document = try? charlesDocument(bytes),
                CharlesJSONReader.looksLikeCharles(document.root)
            {
                let (capture, diagnostics) = try CharlesJSONReader(options: options).visit(document, body)
                return Result(capture: capture, diagnostics: diagnostics)
            }
            // The same routing as ``readWhole(_:)``: anything else is JSON, a HAR unless it is a Charles session.
            let document = try harDocument(bytes)
            if !CharlesJSONReader.looksLikeCharles(document.root) {
                if let har { return try har(document) }
                let (capture, diagnostics) = try HARReader(options: options).visit(document, body)
                return Result(capture: capture, diagnostics: diagnostics)
            }
        }
        // Read whole, then handed over in order: these formats do not yet build transactions one at a time.
        var result = try readWhole(bytes)
        let transactions = result.capture.transactions
        result.capture.transactions = []
        result.capture.summary = HTTPSummary()
        for transaction in transactions { body(transaction) }
        return result
    }

    /// True when the first byte after white space (and a byte order mark) opens an array.
    private static func startsWithArray(_ bytes: [UInt8]) -> Bool {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "[")
    }

    /// A Charles session with its transactions kept opaque (see ``CharlesJSONReader/itemDepth``).
    private func charlesDocument(_ bytes: [UInt8]) throws(HTTPCaptureError) -> JSONDocument {
        var parseOptions = JSONParseOptions()
        parseOptions.opaqueDepth = CharlesJSONReader.itemDepth
        do {
            return try JSONDocument(bytes: bytes, options: parseOptions)
        } catch {
            throw HTTPCaptureError(.syntax, "not JSON: \(error.message)", at: error.location)
        }
    }

    /// The document with HAR entries kept opaque (see ``HARReader/entryDepth``).
    private func harDocument(_ bytes: [UInt8]) throws(HTTPCaptureError) -> JSONDocument {
        var parseOptions = JSONParseOptions()
        parseOptions.opaqueDepth = HARReader.entryDepth
        do {
            return try JSONDocument(bytes: bytes, options: parseOptions)
        } catch {
            throw HTTPCaptureError(.syntax, "not JSON: \(error.message)", at: error.location)
        }
    }

    private func readWhole(_ bytes: [UInt8]) throws(HTTPCaptureError) -> Result {
        switch ContentSniffer.format(of: bytes) {
        case .pcap, .pcapng:
            let (capture, diagnostics) = try PacketCaptureAnalyzer(options: options).analyze(bytes)
            return Result(capture: capture, diagnostics: diagnostics)
        case .xml:
            let (capture, diagnostics) = try CharlesXMLReader(options: options).read(bytes)
            return Result(capture: capture, diagnostics: diagnostics)
        case .empty:
            throw HTTPCaptureError(.empty, "the decompressed capture is empty")
        default:
            // HAR entries are parsed one at a time (see ``HARReader/entryDepth``); a Charles session, which is read
            // as a whole, is parsed again in full.
            let document = try harDocument(bytes)
            if CharlesJSONReader.looksLikeCharles(document.root) {
                let full: JSONDocument
                do {
                    full = try JSONDocument(bytes: bytes)
                } catch {
                    throw HTTPCaptureError(.syntax, "not JSON: \(error.message)", at: error.location)
                }
                let (capture, diagnostics) = try CharlesJSONReader(options: options).read(full)
                return Result(capture: capture, diagnostics: diagnostics)
            }
            let (capture, diagnostics) = try HARReader(options: options).read(document)
            return Result(capture: capture, diagnostics: diagnostics)
        }
    }
}
