import APMInspectCore
import ByteAccess

/// Maps the JSON body of a bug_type 309 report onto ``CrashReport``.
struct CrashJSONReader {
    var diagnostics: [Diagnostic] = []
    /// What the limits left out.
    let tally: CrashLimitTally
    /// Values their typed field could not hold.
    private let issues: CrashJSONFieldIssues
    /// The document's bytes, which frames' symbols point into until they are read.
    private var shared: CrashReport.SharedText?
    /// Members of nested objects that no field read, kept in unknownKeys under their key paths.
    private var unread: CrashJSONUnreadMembers

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
    private static func knownKeyIndex(_ raw: BorrowedBytes) -> Int? {
        guard raw.count < knownKeysByLength.count else { return nil }
        return knownKeysByLength[raw.count].first { $0.bytes.elementsEqual(raw) }?.index
    }

    init(limits: CrashParseLimits = CrashParseLimits()) {
        tally = CrashLimitTally(limits)
        issues = CrashJSONFieldIssues(tally: tally)
        unread = CrashJSONUnreadMembers(tally: tally, byRange: false)
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
        let strict = body.document.diagnostics.isEmpty && !body.document.isTruncated
        unread = CrashJSONUnreadMembers(tally: tally, byRange: strict && shared != nil)
        var report = CrashReport(sourceFormat: .ips309, header: header)
        report.incidentID = text(body.member("incident")) ?? header?.incidentID
        report.crashReporterKey = text(body.member("crashReporterKey"))
        report.hardwareModel = text(body.member("modelCode"))
        report.process = text(body.member("procName")) ?? header?.name
        report.pid = int(body.member("pid"), "pid")
        report.path = text(body.member("procPath"))
        if let bundle = object(body.member("bundleInfo"), "bundleInfo") {
            report.bundleId = text(bundle.member("CFBundleIdentifier"))
            report.appVersion = text(bundle.member("CFBundleShortVersionString"))
            report.appBuild = text(bundle.member("CFBundleVersion"))
            unread.keepUnread(
                of: bundle,
                at: "bundleInfo",
                read: ["CFBundleIdentifier", "CFBundleShortVersionString", "CFBundleVersion"]
            )
        }
        report.bundleId = report.bundleId ?? header?.bundleID
        report.appVersion = report.appVersion ?? header?.appVersion
        if let store = object(body.member("storeInfo"), "storeInfo") {
            report.betaIdentifier = text(store.member("deviceIdentifierForVendor"))
            unread.keepUnread(of: store, at: "storeInfo", read: ["deviceIdentifierForVendor"])
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
        if let os = object(body.member("osVersion"), "osVersion") {
            unread.keepUnread(of: os, at: "osVersion", read: ["train", "build", "releaseType"])
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
        report.termination = object(body.member("termination"), "termination").map(readTermination)
        if let list = array(body.member("usedImages"), "usedImages") {
            report.binaryImages = list.withBorrowedValue { list in
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
        if let asi = object(body.member("asi"), "asi") {
            var lines: [String] = []
            asi.forEachMember { image, value in
                let prefix = image + ": "
                if value.kind == .array {
                    for line in strings(value, "asi." + image) { lines.append(prefix + line) }
                } else if let single = cappedString(value) {
                    lines.append(prefix + single)
                } else {
                    unread.keep(value, at: "asi." + image)
                }
            }
            report.applicationSpecificInformation = lines
        }
        let images = FrameImages(report.binaryImages)
        if let leb = array(body.member("lastExceptionBacktrace"), "lastExceptionBacktrace") {
            report.lastExceptionBacktrace = leb.withBorrowedValue {
                readFrames($0, images: images, path: "lastExceptionBacktrace")
            }
        }
        let faulting = index(body.member("faultingThread"), "faultingThread")
        // Filled in place, as frames and images are: appending a finished thread copies it.
        let threads: [CrashReport.Thread] =
            array(body.member("threads"), "threads")?.withBorrowedValue { list in
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
        if let backtraces = array(body.member("asiBacktraces"), "asiBacktraces") {
            for (k, text) in strings(backtraces, "asiBacktraces").enumerated() {
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
        // Then what no field of a nested object read, under its key path (admitted by the limits when it was met).
        for entry in unread.entries {
            let name = Self.distinctName(entry.keyPath, among: &keptNames)
            switch entry.kept {
            case .range(let range) where keepRanges:
                unknownRanges.append(LazyUnknownKeys.Member(key: name, range: range))
            case .range(let range):
                // An issue made the body's members values: this one is read from its bytes now, which are strict JSON.
                let kept = shared.flatMap { LazyUnknownKeys(members: [.init(key: name, range: range)], of: $0) }
                if let value = kept?.wrappedValue?[name] { unknown.append(JSONValue.Member(key: name, value: value)) }
            case .value(let value):
                // Only for a repaired body, whose members are all values.
                unknown.append(JSONValue.Member(key: name, value: value))
            }
        }
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
        return raw.withBorrowedBytes { tally.cappedString(raw: $0, hasEscapes: $0.firstIndex(of: 0x5C) != nil) }
    }

    /// The string elements of an array, each capped as ``cappedString(_:)``; any other element is kept in
    /// unknownKeys under `path[k]`, and a value that is not an array under `path`.
    private func strings(_ element: JSONElement, _ path: String) -> [String] {
        guard element.kind == .array else {
            if element.kind != .null { unread.keep(element, at: path) }
            return []
        }
        var found: [String] = []
        for (k, item) in element.elements.enumerated() {
            if let string = cappedString(item) {
                found.append(string)
            } else {
                unread.keep(item, at: "\(path)[\(k)]")
            }
        }
        return found
    }

    /// `element` when it is an object; any other value (but `null`) is kept in unknownKeys under `path`.
    private func object(_ element: JSONElement?, _ path: String) -> JSONElement? {
        guard let element else { return nil }
        if element.kind == .object { return element }
        if element.kind != .null { unread.keep(element, at: path) }
        return nil
    }

    /// `element` when it is an array; any other value (but `null`) is kept in unknownKeys under `path`.
    private func array(_ element: JSONElement?, _ path: String) -> JSONElement? {
        guard let element else { return nil }
        if element.kind == .array { return element }
        if element.kind != .null { unread.keep(element, at: path) }
        return nil
    }

    private func readException(_ body: CrashJSONBody) -> CrashReport.Exception? {
        let object = self.object(body.member("exception"), "exception")
        var exception = CrashReport.Exception()
        if let object {
            unread.keepUnread(
                of: object,
                at: "exception",
                read: ["type", "signal", "codes", "subtype", "message", "rawCodes"]
            )
            exception.type = text(object.member("type"))
            exception.signal = text(object.member("signal"))
            exception.codes = text(object.member("codes"))
            exception.subtype = text(object.member("subtype"))
            exception.message = text(object.member("message"))
            if let raw = array(object.member("rawCodes"), "exception.rawCodes") {
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
        unread.keepUnread(
            of: object,
            at: "termination",
            read: ["namespace", "code", "indicator", "reasons", "details", "byProc", "byPid", "flags"]
        )
        termination.reasons = object.member("reasons").map { strings($0, "termination.reasons") } ?? []
        if let details = array(object.member("details"), "termination.details") {
            termination.details = strings(details, "termination.details")
        }
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

    /// ``text(_:)``, keeping a value it cannot read (an object, an array, a boolean) in unknownKeys under `keyPath`.
    private func text(_ value: JSONUnsafeValue?, at keyPath: @autoclosure () -> String) -> String? {
        guard let value else { return nil }
        if let found = text(value) { return found }
        keepUnreadable(value, at: keyPath())
        return nil
    }

    /// Keeps a value that its field could not read, unless it is `null` (absent).
    private func keepUnreadable(_ value: JSONUnsafeValue, at keyPath: @autoclosure () -> String) {
        if value.kind != .null { unread.keep(value, at: keyPath()) }
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
        var bundleVersion: JSONUnsafeValue?
        let here = "usedImages[\(index)]"
        if object.kind != .object, object.kind != .null { unread.keep(object, at: here) }
        // A member no field reads, or a key met again, is kept under its key path.
        func first(_ slot: inout JSONUnsafeValue?, _ value: JSONUnsafeValue, _ key: JSONUnsafeValue) {
            if slot == nil { slot = value } else { unread.keep(value, at: here + "." + (key.string ?? "")) }
        }
        object.forEachMember { key, value in
            switch ImageKey(key.rawBytes) {
            case .base: first(&base, value, key)
            case .size: first(&size, value, key)
            case .path: first(&path, value, key)
            case .source: first(&source, value, key)
            case .name: first(&name, value, key)
            case .uuid: first(&uuid, value, key)
            case .arch: first(&arch, value, key)
            case .version: first(&version, value, key)
            case .bundleId: first(&bundleId, value, key)
            case .bundleVersion: first(&bundleVersion, value, key)
            case nil: unread.keep(value, at: here + "." + (key.string ?? ""))
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
        image.name = text(name, at: here + ".name")
        image.base = HexValue(baseValue)
        image.end = end
        image.uuidText = uuid.flatMap(lazyUUID)
        if image.uuidText == nil, let uuid { keepUnreadable(uuid, at: here + ".uuid") }
        image.arch = text(arch, at: here + ".arch")
        image.pathText = path.flatMap(lazyText)
        if image.pathText == nil, let path { keepUnreadable(path, at: here + ".path") }
        image.version = text(version, at: here + ".CFBundleShortVersionString")
        image.bundleId = text(bundleId, at: here + ".CFBundleIdentifier")
        image.bundleVersion = text(bundleVersion, at: here + ".CFBundleVersion")
        image.source = text(source, at: here + ".source")
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
        case base, size, path, source, name, uuid, arch, version, bundleId, bundleVersion

        init?(_ key: BorrowedBytes) {
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
            case 15 where key.equals("CFBundleVersion"): self = .bundleVersion
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
        let here = "threads[\(thread.index)]"
        if object.kind != .object, object.kind != .null { unread.keep(object, at: here) }
        // One pass over the members; the first member of a name wins, as with `member`. Any other member (a key
        // this version does not read, such as `instructionState`, or a key met again) is kept under its key path.
        object.forEachMember { key, value in
            let raw = key.rawBytes
            var taken = false
            func take(_ slot: inout JSONUnsafeValue?, _ name: StaticString) {
                guard slot == nil, raw.equals(name) else { return }
                slot = value
                taken = true
            }
            switch raw.count {
            case 2: take(&id, "id")
            case 4: take(&name, "name")
            case 5: take(&queue, "queue")
            case 9: take(&triggered, "triggered")
            case 6: take(&frames, "frames")
            case 11: take(&state, "threadState")
            default: break
            }
            if !taken { unread.keep(value, at: here + "." + (key.string ?? "")) }
            return true
        }
        thread.id = uint(id, "\(here).id")
        thread.name = text(name, at: here + ".name")
        thread.queue = text(queue, at: here + ".queue")
        thread.crashed = triggered?.bool ?? (faulting == thread.index)
        if let triggered, triggered.bool == nil { keepUnreadable(triggered, at: here + ".triggered") }
        if let frames {
            if frames.kind == .array {
                thread.frames = readFrames(frames, images: images, path: here + ".frames")
            } else {
                keepUnreadable(frames, at: here + ".frames")
            }
        }
        if let state {
            if state.kind == .object {
                let read = readRegisters(state, path: here + ".threadState", isState: true)
                thread.registerFlavor = read.flavor
                thread.registers = read.registers
                thread.rosettaRegisters = read.rosetta
            } else {
                keepUnreadable(state, at: here + ".threadState")
            }
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
        if object.kind != .object, object.kind != .null { unread.keep(object, at: "\(path)[\(frame.index)]") }
        // A member no field reads, or a key met again, is kept under its key path.
        func first(_ slot: inout JSONUnsafeValue?, _ value: JSONUnsafeValue, _ key: JSONUnsafeValue) {
            if slot == nil {
                slot = value
            } else {
                unread.keep(value, at: "\(path)[\(frame.index)].\(key.string ?? "")")
            }
        }
        // One pass over the members instead of a lookup per key; the first member of a name wins.
        object.forEachMember { key, value in
            switch FrameKey(key.rawBytes) {
            case .imageIndex: first(&imageIndexValue, value, key)
            case .imageOffset: first(&imageOffsetValue, value, key)
            case .symbol: first(&symbol, value, key)
            case .symbolLocation: first(&symbolLocation, value, key)
            case .sourceFile: first(&sourceFile, value, key)
            case .sourceLine: first(&sourceLine, value, key)
            case .inline: first(&inline, value, key)
            case nil: unread.keep(value, at: "\(path)[\(frame.index)].\(key.string ?? "")")
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
        if let symbol {
            frame.symbolText = frameText(symbol, in: &frame)
            if frame.symbolText == nil { keepUnreadable(symbol, at: "\(path)[\(frame.index)].symbol") }
        }
        if let symbolLocation { frame.symbolOffset = uint(symbolLocation, "\(path)[\(frame.index)].symbolLocation") }
        if let sourceFile {
            frame.fileText = frameText(sourceFile, in: &frame)
            if frame.fileText == nil { keepUnreadable(sourceFile, at: "\(path)[\(frame.index)].sourceFile") }
        }
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

        init?(_ key: BorrowedBytes) {
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

    /// What a thread state holds: its flavour, its registers, and the registers of its nested `rosetta` object.
    private struct ReadState {
        var flavor: String?
        var registers: [CrashReport.Register]
        var rosetta: [CrashReport.Register]?
    }

    /// Reads a `threadState` object (`isState`) or the `rosetta` object inside one.
    ///
    /// Registers are numbers or `{"value": …, "symbol": …, "symbolLocation": …, "description": …}`, `x` an array of
    /// them. Anything else
    /// (an object without a value, a register's other members such as `matchesCrashFrame` or `objc-selector`, a
    /// second `rosetta` or `flavor`) is kept in unknownKeys under its key path.
    private func readRegisters(_ state: JSONUnsafeValue, path: String, isState: Bool) -> ReadState {
        var read = ReadState(registers: [])
        // `x` holds up to 29 of them; growing 1, 2, 4 … cost more allocations than the registers themselves.
        read.registers.reserveCapacity(state.count + 32)
        var flavorSeen = false
        func register(_ name: @autoclosure () -> String, _ value: JSONUnsafeValue, at keyPath: () -> String) {
            if value.kind == .object, value.member("value") == nil {
                // An object that is no register (a state this version does not know): kept whole.
                unread.keep(value, at: keyPath())
                return
            }
            guard value.kind == .object else {
                if let number = uint(value, keyPath()) {
                    read.registers.append(CrashReport.Register(name: name(), value: HexValue(number)))
                }
                return
            }
            var number: JSONUnsafeValue?
            var symbol: JSONUnsafeValue?
            var location: JSONUnsafeValue?
            var description: JSONUnsafeValue?
            value.forEachMember { key, member in
                let raw = key.rawBytes
                var taken = false
                func take(_ slot: inout JSONUnsafeValue?, _ name: StaticString) {
                    guard slot == nil, raw.equals(name) else { return }
                    slot = member
                    taken = true
                }
                switch raw.count {
                case 5: take(&number, "value")
                case 6: take(&symbol, "symbol")
                case 14: take(&location, "symbolLocation")
                case 11: take(&description, "description")
                default: break
                }
                if !taken { unread.keep(member, at: keyPath() + "." + (key.string ?? "")) }
                return true
            }
            guard let number, let value = uint(number, keyPath() + ".value") else { return }
            var parts: [String] = []
            if let symbol = text(symbol, at: keyPath() + ".symbol") {
                let offset = uint(location, keyPath() + ".symbolLocation").map { " + \($0)" } ?? ""
                parts.append(symbol + offset)
            } else if let location {
                keepUnreadable(location, at: keyPath() + ".symbolLocation")
            }
            if let text = text(description, at: keyPath() + ".description") { parts.append(text) }
            read.registers.append(
                CrashReport.Register(
                    name: name(),
                    value: HexValue(value),
                    description: parts.isEmpty ? nil : parts.joined(separator: " ")
                )
            )
        }
        state.forEachMember { key, value in
            // Keys are compared decoded, so an escaped spelling of `flavor`, `x` or `rosetta` is still that key.
            let decoded = key.hasEscapes ? key.string : nil
            func named(_ literal: StaticString) -> Bool {
                guard let decoded else { return key.rawEquals(literal) }
                return literal.withBorrowedUTF8 { decoded.utf8.elementsEqual($0) }
            }
            let name = decoded ?? key.rawBytes.string
            if named("flavor") {
                if isState, !flavorSeen {
                    flavorSeen = true
                    read.flavor = text(value, at: "\(path).flavor")
                } else {
                    unread.keep(value, at: "\(path).flavor")
                }
                return true
            }
            if named("x"), value.kind == .array {
                var k = 0
                value.forEachElement { element in
                    register(k < Self.xNames.count ? Self.xNames[k] : "x\(k)", element) { "\(path).x[\(k)]" }
                    k += 1
                    return true
                }
                return true
            }
            if isState, read.rosetta == nil, named("rosetta"), value.kind == .object {
                // A translated (Rosetta) thread's own registers (`tmp0` …), in the order written.
                let nested = readRegisters(value, path: "\(path).rosetta", isState: false)
                read.rosetta = nested.registers.isEmpty ? nil : nested.registers
                return true
            }
            register(name, value) { "\(path).\(name)" }
            return true
        }
        return read
    }
}
