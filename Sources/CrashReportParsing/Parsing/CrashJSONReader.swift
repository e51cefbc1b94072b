import APMInspectCore

/// Maps the JSON body of a bug_type 309 report onto ``CrashReport``.
struct CrashJSONReader {
    var diagnostics: [Diagnostic] = []
    /// What the limits left out.
    let tally: CrashLimitTally
    /// Values their typed field could not hold.
    private let issues: CrashJSONFieldIssues
    /// The document's bytes, which frames' symbols point into until they are read.
    private var shared: CrashReport.SharedText?

    private static let knownKeys: Set<String> = [
        "incident", "crashReporterKey", "modelCode", "procName", "pid", "procPath", "bundleInfo", "storeInfo",
        "cpuType", "translated", "procRole", "parentProc", "parentPid", "responsibleProc", "responsiblePid",
        "coalitionName", "coalitionID", "captureTime", "procLaunch", "osVersion", "exception", "isCorpse",
        "is_corpse", "isNonFatal", "isSimulated", "termination", "faultingThread", "asi", "lastExceptionBacktrace",
        "threads", "usedImages", "ktriageinfo", "vmregioninfo", "vmRegionInfo", "vmSummary", "asiBacktraces",
        "bug_type",
    ]

    /// ``knownKeys`` in a fixed order, so that a key's position can mark it as read.
    private static let knownKeyList: [String] = knownKeys.sorted()

    /// ``knownKeyList`` as bytes with their positions, by length, for matching raw keys without decoding them.
    private static let knownKeysByLength: [[(bytes: [UInt8], index: Int)]] = {
        var table = [[(bytes: [UInt8], index: Int)]](repeating: [], count: 32)
        for (index, key) in knownKeyList.enumerated() where key.utf8.count < table.count {
            table[key.utf8.count].append((Array(key.utf8), index))
        }
        return table
    }()

    /// The position in ``knownKeyList`` of the key whose bytes `raw` is exactly (nil for escaped spellings, which
    /// ``JSONElement/member(_:)`` does not match either).
    private static func knownKeyIndex(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        guard raw.count < knownKeysByLength.count else { return nil }
        return knownKeysByLength[raw.count].first { $0.bytes.elementsEqual(raw) }?.index
    }

    init(limits: CrashParseLimits = CrashParseLimits()) {
        tally = CrashLimitTally(limits)
        issues = CrashJSONFieldIssues(tally: tally)
    }

    mutating func read(_ body: CrashJSONBody, header: IPSHeader?) -> CrashReport {
        var report = readReport(body, header: header)
        diagnostics += issues.diagnostics(in: body.document)
        diagnostics += tally.diagnostics
        if tally.cutSomething { report.isPartial = true }
        return report
    }

    private mutating func readReport(_ body: CrashJSONBody, header: IPSHeader?) -> CrashReport {
        shared = CrashReport.SharedText(body.document.bytes)
        var report = CrashReport(sourceFormat: .ips309, header: header)
        report.incidentID = text(body.member("incident")) ?? header?.incidentID
        report.crashReporterKey = text(body.member("crashReporterKey"))
        report.hardwareModel = text(body.member("modelCode"))
        report.process = text(body.member("procName")) ?? header?.name
        report.pid = int(body.member("pid"), "pid")
        report.path = text(body.member("procPath"))
        if let bundle = body.member("bundleInfo") {
            report.bundleId = text(bundle.member("CFBundleIdentifier"))
            report.appVersion = text(bundle.member("CFBundleShortVersionString"))
            report.appBuild = text(bundle.member("CFBundleVersion"))
        }
        report.bundleId = report.bundleId ?? header?.bundleID
        report.appVersion = report.appVersion ?? header?.appVersion
        if let store = body.member("storeInfo") {
            report.betaIdentifier = text(store.member("deviceIdentifierForVendor"))
        }
        report.codeType = text(body.member("cpuType"))
        report.isTranslated = body.member("translated").flatMap { flag($0, "translated") }
        report.role = text(body.member("procRole"))
        report.parentProcess = text(body.member("parentProc"))
        report.parentPid = int(body.member("parentPid"), "parentPid")
        report.responsibleProcess = text(body.member("responsibleProc"))
        report.responsiblePid = int(body.member("responsiblePid"), "responsiblePid")
        report.coalition = text(body.member("coalitionName"))
        report.coalitionId = int(body.member("coalitionID"), "coalitionID")
        report.date = text(body.member("captureTime")).flatMap(AppleTimestamp.init)
        report.launchTime = text(body.member("procLaunch")).flatMap(AppleTimestamp.init)
        if let os = body.member("osVersion") {
            let train = text(os.member("train"))
            let build = text(os.member("build"))
            report.releaseType = text(os.member("releaseType")).flatMap { $0.isEmpty ? nil : $0 }
            if let train {
                let written = (build?.isEmpty == false) ? "\(train) (\(build ?? ""))" : train
                report.osVersion = written
            }
        }
        report.osVersion = report.osVersion ?? header?.osVersion
        report.exception = readException(body)
        report.termination = body.member("termination").map(readTermination)
        if let list = body.member("usedImages") {
            report.binaryImages = list.withUnsafeValue { list in
                // Each image is filled in place, as frames are: appending a finished image copies it, retaining
                // and releasing every string it holds.
                let capacity = min(list.count, tally.limits.maxBinaryImages)
                tally.skipImages(list.count - capacity)
                return [CrashReport.BinaryImage](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    list.forEachElement { object in
                        guard initialized < capacity, let slot = buffer.baseAddress?.advanced(by: initialized) else {
                            return false
                        }
                        slot.initialize(to: CrashReport.BinaryImage(base: HexValue(0)))
                        readImage(object, into: &slot.pointee, index: initialized)
                        initialized += 1
                        return true
                    }
                }
            }
        }
        if let asi = body.member("asi"), asi.kind == .object {
            var lines: [String] = []
            asi.forEachMember { image, value in
                let prefix = image + ": "
                for line in strings(value) { lines.append(prefix + line) }
                if let single = cappedString(value) { lines.append(prefix + single) }
            }
            report.applicationSpecificInformation = lines
        }
        let images = FrameImages(report.binaryImages)
        if let leb = body.member("lastExceptionBacktrace"), leb.kind == .array {
            report.lastExceptionBacktrace = leb.withUnsafeValue {
                readFrames($0, images: images, path: "lastExceptionBacktrace")
            }
        }
        let faulting = index(body.member("faultingThread"), "faultingThread")
        // Filled in place, as frames and images are: appending a finished thread copies it.
        let threads: [CrashReport.Thread] =
            body.member("threads")?.withUnsafeValue { list in
                let capacity = min(list.count, tally.limits.maxThreads)
                tally.skipThreads(list.count - capacity)
                return [CrashReport.Thread](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                    list.forEachElement { object in
                        guard initialized < capacity, let slot = buffer.baseAddress?.advanced(by: initialized) else {
                            return false
                        }
                        slot.initialize(to: CrashReport.Thread(index: initialized))
                        initialized += 1
                        readThread(object, into: &slot.pointee, faulting: faulting, images: images)
                        return true
                    }
                }
            } ?? []
        report.threads = threads
        report.crashedThread = faulting ?? threads.first { $0.crashed }?.index
        if let index = report.crashedThread, index >= threads.count {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .crashFaultingThreadOutOfRange,
                    "faultingThread \(index) is past the \(threads.count) threads listed",
                    at: SourceLocation(keyPath: "faultingThread")
                )
            )
        }
        var blocks: [CrashReport.Block] = []
        if let triage = body.member("ktriageinfo").flatMap(cappedString) {
            blocks.append(CrashReport.Block(title: "Kernel Triage", text: triage))
        }
        if let region = (body.member("vmregioninfo") ?? body.member("vmRegionInfo")).flatMap(cappedString) {
            blocks.append(CrashReport.Block(title: "VM Region Info", text: region))
        }
        if let summary = body.member("vmSummary").flatMap(cappedString) {
            blocks.append(CrashReport.Block(title: "VM Region Summary", text: summary))
        }
        if let backtraces = body.member("asiBacktraces"), backtraces.kind == .array {
            for (k, text) in strings(backtraces).enumerated() {
                blocks.append(CrashReport.Block(title: "Application Specific Backtrace \(k + 1)", text: text))
            }
        }
        report.blocks = blocks
        // Unknown members of a body that parsed as strict JSON are kept as byte ranges, read when asked for (see
        // ``LazyUnknownKeys``); those of a repaired body are made into values now, as the repairs made them.
        let document = body.document
        // Values that did not fit their field are kept as values, with the members beside them.
        let keepRanges =
            document.diagnostics.isEmpty && !document.isTruncated && shared != nil && issues.entries.isEmpty
        var unknown: [JSONValue.Member] = issues.members
        var unknownRanges: [LazyUnknownKeys.Member] = []
        // The fields above read the first member whose key bytes match (``CrashJSONBody/member(_:)``); a known key
        // met again, or spelled with escapes, is a value no field took, so it is kept here with a warning.
        var keyRead = [Bool](repeating: false, count: Self.knownKeyList.count)
        var notes = DiagnosticLog(perKind: 5, total: 20)
        var keptNames: [String: Int] = [:]
        for member in unknown { keptNames[member.key, default: 0] += 1 }
        body.forEachMemberRaw { raw, value in
            // Known keys are matched on their bytes first, which spares decoding and hashing every key of the body;
            // anything else (unknown, or spelled with escapes) is decoded and checked as before.
            let key: String
            if let index = Self.knownKeyIndex(raw) {
                if !keyRead[index] {
                    keyRead[index] = true
                    return true
                }
                key = Self.knownKeyList[index]
                notes.add(
                    .crashRepeatedKey,
                    .warning,
                    "key \"\(key)\" is repeated; the first is read and this value is kept in unknownKeys",
                    at: document.location(ofByte: value.byteOffset)
                )
            } else {
                key = JSONElement.decodedString(rawBytes: raw)
                if Self.knownKeys.contains(key) {
                    notes.add(
                        .crashEscapedKey,
                        .warning,
                        "key \"\(key)\" is spelled with escapes, which its field does not read; "
                            + "the value is kept in unknownKeys",
                        at: document.location(ofByte: value.byteOffset)
                    )
                }
            }
            // Capped as unknown text lines are (``CrashParseLimits/maxUnknownEntries``): a body of millions of
            // small unknown members would otherwise keep an entry for each. Only the key counts towards the bytes:
            // a value stays a range of the report's own bytes (or, repaired, a value no larger than its text).
            guard tally.admitUnknown(bytes: raw.count) else { return true }
            let name = Self.distinctName(key, among: &keptNames)
            if keepRanges {
                unknownRanges.append(LazyUnknownKeys.Member(key: name, range: value.sourceRange))
            } else {
                unknown.append(JSONValue.Member(key: name, value: value.materialized))
            }
            return true
        }
        diagnostics += notes.finished()
        if let shared, !unknownRanges.isEmpty {
            report.keepUnknownMembers(unknownRanges, of: shared)
        } else if !unknown.isEmpty {
            report.unknownKeys = .object(unknown)
        }
        return report
    }

    /// `key`, or `key#2`, `key#3` … (the first name not taken) when unknownKeys already holds `key`.
    ///
    /// Output objects hold one member per name, so two values kept under one name would lose one on the way out: a
    /// key repeated in the body (an unknown one, or a known one met again) is kept under a name of its own.
    static func distinctName(_ key: String, among kept: inout [String: Int]) -> String {
        guard let seen = kept[key] else {
            kept[key] = 1
            return key
        }
        var number = seen + 1
        while kept["\(key)#\(number)"] != nil { number += 1 }
        kept[key] = number
        let name = "\(key)#\(number)"
        kept[name] = 1
        return name
    }

    private func text(_ element: JSONElement?) -> String? {
        guard let element else { return nil }
        switch element.kind {
        case .string: return cappedString(element)
        case .number: return element.rawText
        default: return nil
        }
    }

    /// A string value, cut to ``CrashParseLimits/maxStringBytes`` before it is decoded.
    private func cappedString(_ element: JSONElement) -> String? {
        guard element.kind == .string else { return nil }
        let raw = element.rawBytes
        return raw.withUnsafeBufferPointer { tally.cappedString(raw: $0, hasEscapes: $0.contains(0x5C)) }
    }

    /// The string elements of an array, each capped as ``cappedString(_:)``.
    private func strings(_ element: JSONElement) -> [String] {
        element.elements.compactMap(cappedString)
    }

    private func readException(_ body: CrashJSONBody) -> CrashReport.Exception? {
        let object = body.member("exception")
        var exception = CrashReport.Exception()
        if let object {
            exception.type = text(object.member("type"))
            exception.signal = text(object.member("signal"))
            exception.codes = text(object.member("codes"))
            exception.subtype = text(object.member("subtype"))
            exception.message = text(object.member("message"))
            if let raw = object.member("rawCodes"), raw.kind == .array {
                exception.codeValues = raw.elements.enumerated().compactMap { k, element in
                    uint(element, "exception.rawCodes[\(k)]").map(HexValue.init)
                }
            }
        }
        exception.isCorpse =
            (body.member("isCorpse").map { ($0, "isCorpse") }
            ?? body.member("is_corpse").map { ($0, "is_corpse") }).flatMap { flag($0, $1) }
        exception.isNonFatal = body.member("isNonFatal").flatMap { flag($0, "isNonFatal") }
        exception.isSimulated = body.member("isSimulated").flatMap { flag($0, "isSimulated") }
        guard object != nil || exception.isCorpse != nil else { return nil }
        return exception
    }

    private func flag(_ element: JSONElement, _ keyPath: @autoclosure () -> String) -> Bool? {
        if let value = element.bool ?? element.int64.map({ $0 != 0 }) { return value }
        issues.record(element, keyPath(), expected: "a boolean")
        return nil
    }

    /// A signed integer field; a value present that is not one (`1e999`, past Int64, a fraction, a string) is
    /// recorded in ``issues`` and the field left empty.
    private func int(_ element: JSONElement?, _ keyPath: @autoclosure () -> String) -> Int64? {
        guard let element else { return nil }
        if let value = element.int64 { return value }
        issues.record(element, keyPath(), expected: "an integer")
        return nil
    }

    /// An unsigned integer field, recorded in ``issues`` as ``int(_:_:)`` does (a negative number too).
    private func uint(_ element: JSONElement?, _ keyPath: @autoclosure () -> String) -> UInt64? {
        guard let element else { return nil }
        if let value = element.uint64 { return value }
        issues.record(element, keyPath(), expected: "an unsigned integer")
        return nil
    }

    /// An index (a thread, an image): an unsigned integer that fits `Int`.
    private func index(_ element: JSONElement?, _ keyPath: @autoclosure () -> String) -> Int? {
        guard let element else { return nil }
        if let value = element.uint64.flatMap({ Int(exactly: $0) }) { return value }
        issues.record(element, keyPath(), expected: "an index (an unsigned integer)")
        return nil
    }

    private func int(_ value: JSONUnsafeValue?, _ keyPath: @autoclosure () -> String) -> Int64? {
        guard let value else { return nil }
        if let number = value.int64 { return number }
        issues.record(value, keyPath(), expected: "an integer")
        return nil
    }

    private func uint(_ value: JSONUnsafeValue?, _ keyPath: @autoclosure () -> String) -> UInt64? {
        guard let value else { return nil }
        if let number = value.uint64 { return number }
        issues.record(value, keyPath(), expected: "an unsigned integer")
        return nil
    }

    private func index(_ value: JSONUnsafeValue?, _ keyPath: @autoclosure () -> String) -> Int? {
        guard let value else { return nil }
        if let number = value.uint64.flatMap({ Int(exactly: $0) }) { return number }
        issues.record(value, keyPath(), expected: "an index (an unsigned integer)")
        return nil
    }

    private func readTermination(_ object: JSONElement) -> CrashReport.Termination {
        var termination = CrashReport.Termination()
        termination.namespace = text(object.member("namespace"))
        termination.code = object.member("code").flatMap { hex($0, "termination.code") }
        termination.indicator = text(object.member("indicator"))
        termination.reasons = object.member("reasons").map(strings) ?? []
        if let details = object.member("details"), details.kind == .array { termination.details = strings(details) }
        termination.byProcess = text(object.member("byProc"))
        termination.byPid = int(object.member("byPid"), "termination.byPid")
        termination.flags = object.member("flags").flatMap { hex($0, "termination.flags") }
        return termination
    }

    /// Codes are decimal numbers in JSON (up to 2^64), or occasionally hex strings.
    private func hex(_ element: JSONElement, _ keyPath: @autoclosure () -> String) -> HexValue? {
        if let value = element.uint64 { return HexValue(value) }
        if let value = element.int64 { return HexValue(UInt64(bitPattern: value)) }
        if let value = cappedString(element).flatMap({ HexValue(parsing: Substring($0)) }) { return value }
        issues.record(element, keyPath(), expected: "a code (an integer or hexadecimal text)")
        return nil
    }

    /// A string value as a window on the document's bytes (escapes resolved when it is read), else as ``text(_:)``
    /// reads it.
    private func lazyText(_ value: JSONUnsafeValue) -> CrashReport.LazyText? {
        if let shared, value.kind == .string, let range = value.byteRange {
            return value.hasEscapes
                ? .json(shared, start: range.lowerBound, end: range.upperBound)
                : .shared(shared, start: range.lowerBound, end: range.upperBound)
        }
        return text(value).map(CrashReport.LazyText.text)
    }

    /// A frame's text: for a string, a window on the document's bytes (which `frame` then references), else as
    /// ``text(_:)`` reads it.
    private func frameText(_ value: JSONUnsafeValue, in frame: inout CrashReport.Frame) -> CrashReport.FrameText? {
        if let shared, value.kind == .string, let range = value.byteRange {
            if frame.source == nil { frame.source = shared }
            return .window(range, of: shared, json: value.hasEscapes)
        }
        return text(value).map(CrashReport.FrameText.text)
    }

    /// A value's text: the decoded string, or a number's digits as written (as ``text(_:)`` for elements).
    private func text(_ value: JSONUnsafeValue?) -> String? {
        guard let value else { return nil }
        switch value.kind {
        case .string: return tally.cappedString(raw: value.rawBytes, hasEscapes: value.hasEscapes)
        case .number: return value.rawText
        default: return nil
        }
    }

    private func readImage(_ object: JSONUnsafeValue, into image: inout CrashReport.BinaryImage, index: Int) {
        // One pass over the members instead of a lookup per key; the first member of a name wins, as with `member`.
        var base: JSONUnsafeValue?
        var size: JSONUnsafeValue?
        var path: JSONUnsafeValue?
        var source: JSONUnsafeValue?
        var name: JSONUnsafeValue?
        var uuid: JSONUnsafeValue?
        var arch: JSONUnsafeValue?
        var version: JSONUnsafeValue?
        var bundleId: JSONUnsafeValue?
        object.forEachMember { key, value in
            switch ImageKey(key.rawBytes) {
            case .base: if base == nil { base = value }
            case .size: if size == nil { size = value }
            case .path: if path == nil { path = value }
            case .source: if source == nil { source = value }
            case .name: if name == nil { name = value }
            case .uuid: if uuid == nil { uuid = value }
            case .arch: if arch == nil { arch = value }
            case .version: if version == nil { version = value }
            case .bundleId: if bundleId == nil { bundleId = value }
            case nil: break
            }
            return true
        }
        let baseValue = uint(base, "usedImages[\(index)].base") ?? 0
        let sizeValue = uint(size, "usedImages[\(index)].size")
        var end: HexValue?
        if let sizeValue, sizeValue > 0 {
            let (sum, overflow) = baseValue.addingReportingOverflow(sizeValue - 1)
            end = overflow ? nil : HexValue(sum)
        }
        image.name = text(name)
        image.base = HexValue(baseValue)
        image.end = end
        image.uuidText = uuid.flatMap(lazyUUID)
        image.arch = text(arch)
        image.pathText = path.flatMap(lazyText)
        image.version = text(version)
        image.bundleId = text(bundleId)
        image.source = text(source)
    }

    /// The UUID as a window normalised when read, when the value's bytes are its text (a string without escapes,
    /// or a number); otherwise normalised now.
    private func lazyUUID(_ value: JSONUnsafeValue) -> CrashReport.LazyText? {
        switch value.kind {
        case .string where !value.hasEscapes, .number:
            if let shared, let range = value.byteRange {
                return .uuid(shared, start: range.lowerBound, end: range.upperBound)
            }
        case .string: break
        default: return nil
        }
        return normalizedUUID(value).map(CrashReport.LazyText.text)
    }

    /// ``CrashTextReader/normalizeUUID(_:)`` of the value's text, straight from the bytes when they are plain ASCII
    /// (the usual case), which is what that function does after decoding them.
    private func normalizedUUID(_ value: JSONUnsafeValue) -> String? {
        switch value.kind {
        case .string where !value.hasEscapes, .number:
            let raw = value.rawBytes
            if raw.allSatisfy({ $0 < 0x80 }) { return TextBytes(raw).lowercasedWithoutDashes() }
        case .string: break
        default: return nil
        }
        return text(value).map(CrashTextReader.normalizeUUID)
    }

    /// The `usedImages` keys read, by raw key bytes.
    private enum ImageKey: Int, CaseIterable {
        case base, size, path, source, name, uuid, arch, version, bundleId

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            switch key.count {
            case 4:
                if key.equals("base") {
                    self = .base
                } else if key.equals("size") {
                    self = .size
                } else if key.equals("path") {
                    self = .path
                } else if key.equals("name") {
                    self = .name
                } else if key.equals("uuid") {
                    self = .uuid
                } else if key.equals("arch") {
                    self = .arch
                } else {
                    return nil
                }
            case 6 where key.equals("source"): self = .source
            case 26 where key.equals("CFBundleShortVersionString"): self = .version
            case 18 where key.equals("CFBundleIdentifier"): self = .bundleId
            default: return nil
            }
        }
    }

    private func readThread(
        _ object: JSONUnsafeValue,
        into thread: inout CrashReport.Thread,
        faulting: Int?,
        images: FrameImages
    ) {
        var id: JSONUnsafeValue?
        var name: JSONUnsafeValue?
        var queue: JSONUnsafeValue?
        var triggered: JSONUnsafeValue?
        var frames: JSONUnsafeValue?
        var state: JSONUnsafeValue?
        // One pass over the members; the first member of a name wins, as with `member`.
        object.forEachMember { key, value in
            let raw = key.rawBytes
            switch raw.count {
            case 2: if id == nil, raw.equals("id") { id = value }
            case 4: if name == nil, raw.equals("name") { name = value }
            case 5: if queue == nil, raw.equals("queue") { queue = value }
            case 9: if triggered == nil, raw.equals("triggered") { triggered = value }
            case 6: if frames == nil, raw.equals("frames") { frames = value }
            case 11: if state == nil, raw.equals("threadState") { state = value }
            default: break
            }
            return true
        }
        thread.id = uint(id, "threads[\(thread.index)].id")
        thread.name = text(name)
        thread.queue = text(queue)
        thread.crashed = triggered?.bool ?? (faulting == thread.index)
        if let frames, frames.kind == .array {
            thread.frames = readFrames(frames, images: images, path: "threads[\(thread.index)].frames")
        }
        if let state, state.kind == .object {
            thread.registerFlavor = text(state.member("flavor"))
            thread.registers = readRegisters(state, path: "threads[\(thread.index)].threadState")
        }
    }

    /// `path` is the key path of the list (`threads[2].frames`), for the findings about a frame's values.
    private func readFrames(_ list: JSONUnsafeValue, images: FrameImages, path: String) -> [CrashReport.Frame] {
        // Each frame is filled in place in the array's storage: appending, or initialising from, a finished frame
        // copies it (retaining its strings) and destroys the original (releasing them), for every frame.
        let capacity = tally.admitFrames(list.count, held: 0)
        return [CrashReport.Frame](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            list.forEachElement { object in
                guard initialized < capacity, let slot = buffer.baseAddress?.advanced(by: initialized) else {
                    return false
                }
                slot.initialize(to: CrashReport.Frame(index: initialized))
                initialized += 1
                readFrame(object, into: &slot.pointee, images: images, path: path)
                return true
            }
        }
    }

    @inline(__always)
    private func readFrame(
        _ object: JSONUnsafeValue,
        into frame: inout CrashReport.Frame,
        images: FrameImages,
        path: String
    ) {
        var imageIndexValue: JSONUnsafeValue?
        var imageOffsetValue: JSONUnsafeValue?
        var symbol: JSONUnsafeValue?
        var symbolLocation: JSONUnsafeValue?
        var sourceFile: JSONUnsafeValue?
        var sourceLine: JSONUnsafeValue?
        var inline: JSONUnsafeValue?
        // One pass over the members instead of a lookup per key; the first member of a name wins.
        object.forEachMember { key, value in
            switch FrameKey(key.rawBytes) {
            case .imageIndex: if imageIndexValue == nil { imageIndexValue = value }
            case .imageOffset: if imageOffsetValue == nil { imageOffsetValue = value }
            case .symbol: if symbol == nil { symbol = value }
            case .symbolLocation: if symbolLocation == nil { symbolLocation = value }
            case .sourceFile: if sourceFile == nil { sourceFile = value }
            case .sourceLine: if sourceLine == nil { sourceLine = value }
            case .inline: if inline == nil { inline = value }
            case nil: break
            }
            return true
        }
        let imageIndex = index(imageIndexValue, "\(path)[\(frame.index)].imageIndex")
        let imageOffset = uint(imageOffsetValue, "\(path)[\(frame.index)].imageOffset")
        if let imageIndex, imageIndex < images.names.count {
            frame.image = images.names[imageIndex]
            if let imageOffset {
                let (sum, overflow) = images.bases[imageIndex].addingReportingOverflow(imageOffset)
                frame.address = overflow ? nil : HexValue(sum)
            }
        }
        frame.imageOffset = imageOffset
        if let symbol { frame.symbolText = frameText(symbol, in: &frame) }
        if let symbolLocation { frame.symbolOffset = uint(symbolLocation, "\(path)[\(frame.index)].symbolLocation") }
        if let sourceFile { frame.fileText = frameText(sourceFile, in: &frame) }
        if let sourceLine { frame.line = int(sourceLine, "\(path)[\(frame.index)].sourceLine").map(Int.init) }
        if let inline {
            frame.inlined = inline.bool
            if frame.inlined == nil { issues.record(inline, "\(path)[\(frame.index)].inline", expected: "a boolean") }
        }
    }

    /// What frames take from the binary images they point at, by image index.
    ///
    /// Reading a name or base through the images array copied the whole image (retaining and releasing each of its
    /// strings) for every frame.
    private struct FrameImages {
        let names: [String?]
        let bases: [UInt64]

        init(_ images: [CrashReport.BinaryImage]) {
            names = images.map(\.name)
            bases = images.map(\.base.value)
        }
    }

    /// The frame keys read, by raw key bytes.
    private enum FrameKey: Int, CaseIterable {
        case imageIndex, imageOffset, symbol, symbolLocation, sourceFile, sourceLine, inline

        init?(_ key: UnsafeBufferPointer<UInt8>) {
            switch key.count {
            case 10:
                if key.equals("imageIndex") {
                    self = .imageIndex
                } else if key.equals("sourceFile") {
                    self = .sourceFile
                } else if key.equals("sourceLine") {
                    self = .sourceLine
                } else {
                    return nil
                }
            case 11 where key.equals("imageOffset"): self = .imageOffset
            case 6:
                if key.equals("symbol") {
                    self = .symbol
                } else if key.equals("inline") {
                    self = .inline
                } else {
                    return nil
                }
            case 14 where key.equals("symbolLocation"): self = .symbolLocation
            default: return nil
            }
        }
    }

    /// `x0` … `x31`, made once instead of by interpolation for every register of every report.
    private static let xNames = (0..<32).map { "x\($0)" }

    private func readRegisters(_ state: JSONUnsafeValue, path: String) -> [CrashReport.Register] {
        var registers: [CrashReport.Register] = []
        // `x` holds up to 29 of them; growing 1, 2, 4 … cost more allocations than the registers themselves.
        registers.reserveCapacity(state.count + 32)
        func register(_ name: @autoclosure () -> String, _ value: JSONUnsafeValue, at keyPath: () -> String) {
            if value.kind != .object, let number = uint(value, keyPath()) {
                registers.append(CrashReport.Register(name: name(), value: HexValue(number)))
            } else if value.kind == .object, let number = uint(value.member("value"), keyPath() + ".value") {
                var parts: [String] = []
                if let symbol = text(value.member("symbol")) {
                    let location =
                        uint(value.member("symbolLocation"), keyPath() + ".symbolLocation").map { " + \($0)" } ?? ""
                    parts.append(symbol + location)
                }
                if let description = text(value.member("description")) { parts.append(description) }
                registers.append(
                    CrashReport.Register(
                        name: name(),
                        value: HexValue(number),
                        description: parts.isEmpty ? nil : parts.joined(separator: " ")
                    )
                )
            }
        }
        state.forEachMember { key, value in
            // Keys are compared decoded, so an escaped spelling of `flavor` or `x` is still that key.
            let decoded = key.hasEscapes ? key.string : nil
            if decoded.map({ $0 == "flavor" }) ?? key.rawEquals("flavor") { return true }
            if decoded.map({ $0 == "x" }) ?? key.rawEquals("x"), value.kind == .array {
                var k = 0
                value.forEachElement { element in
                    register(k < Self.xNames.count ? Self.xNames[k] : "x\(k)", element) { "\(path).x[\(k)]" }
                    k += 1
                    return true
                }
                return true
            }
            let name = decoded ?? String(decoding: key.rawBytes, as: UTF8.self)
            register(name, value) { "\(path).\(name)" }
            return true
        }
        return registers
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// True when the bytes are exactly `key`'s UTF-8.
    fileprivate func equals(_ key: StaticString) -> Bool {
        let length = key.utf8CodeUnitCount
        guard count == length else { return false }
        let other = key.utf8Start
        for k in 0..<length where self[k] != other[k] { return false }
        return true
    }
}
