import APMInspectCore
import ByteAccess

/// One KSCrash report's mapping onto ``CrashReport``, with the findings made on the way.
///
/// Every section is optional and every value may have the wrong type: what cannot be read is skipped with a
/// diagnostic naming its key path, and what the model has no field for is kept in ``CrashReport/unknownKeys``
/// under the section it came from.
struct KSCrashMapping {
    var diagnostics: [Diagnostic] = []
    /// Warnings about single values, capped (``DiagnosticLog``): a report of a million mistyped values says so a
    /// few times with a count.
    var valueWarnings = DiagnosticLog(perKind: 20, total: 1_000)
    /// What the limits left out.
    let tally: CrashLimitTally
    /// The CPU architecture (`system.cpu_arch`, else from the CPU type), which names the register layout.
    var architecture: String?

    init(limits: CrashParseLimits) {
        tally = CrashLimitTally(limits)
    }

    /// Maps the report at `root`.
    mutating func read(_ root: JSONElement) -> CrashReport {
        var report = readReport(root, keyPath: "", allowRecrash: true)
        diagnostics += tally.diagnostics
        if tally.cutSomething { report.isPartial = true }
        return report
    }

    static let knownTopLevel: Set<String> = ["report", "system", "binary_images", "crash"]

    /// The report at `root`; `allowRecrash` is false inside a `recrash_report`, whose own recrash is kept as is.
    mutating func readReport(_ root: JSONElement, keyPath: String, allowRecrash: Bool) -> CrashReport {
        let crash = root.member("crash")
        if allowRecrash, root.member("report") == nil, crash == nil, let recrash = root.member("recrash_report"),
            recrash.kind == .object
        {
            warn(
                .kscrashRecrashOnly,
                "the file holds only a recrash report (the crash handler crashed before the main report was "
                    + "written): that report was read, and is incomplete",
                recrash,
                "recrash_report"
            )
            var report = readReport(recrash, keyPath: "recrash_report", allowRecrash: false)
            report.isPartial = true
            return report
        }
        var report = CrashReport(sourceFormat: .kscrash)
        var unknown: [JSONValue.Member] = []
        let isLegacy = root.member("report") == nil
        if let section = root.member("report") {
            readHeader(section, keyPath: Self.path(keyPath, "report"), into: &report, unknown: &unknown)
        } else {
            // The 2012 layout: the header's facts are top-level keys.
            report.incidentID = text(root.member("crash_id"))
            if let major = root.member("report_version_major")?.int64 {
                report.reportVersion = "\(major).\(root.member("report_version_minor")?.int64 ?? 0)"
            }
            if let time = root.member("timestamp") {
                report.date = date(time, keyPath: Self.path(keyPath, "timestamp"))
            }
        }
        if let system = root.member("system") {
            readSystem(system, keyPath: Self.path(keyPath, "system"), into: &report, unknown: &unknown)
        }
        var asi: [String] = []
        if let images = root.member("binary_images") ?? crash?.member("binary_images") {
            let imagesPath = root.member("binary_images") != nil ? "binary_images" : "crash.binary_images"
            report.binaryImages = readImages(images, keyPath: Self.path(keyPath, imagesPath), messages: &asi)
        }
        if architecture == nil {
            architecture = report.binaryImages.first { $0.path != nil && $0.path == report.path }?.arch
        }
        if report.codeType == nil, let architecture {
            report.codeType = KSCrashNames.codeType(architecture: architecture)
        }
        if let crash {
            readCrash(crash, keyPath: Self.path(keyPath, "crash"), into: &report, asi: &asi, unknown: &unknown)
        }
        root.forEachMember { key, value in
            if Self.knownTopLevel.contains(key) { return }
            if isLegacy, ["crash_id", "report_version_major", "report_version_minor", "timestamp"].contains(key) {
                return
            }
            switch key {
            case "recrash_report" where allowRecrash && value.kind == .object:
                readRecrash(value, keyPath: Self.path(keyPath, key), into: &report)
            case "incomplete" where value.bool == true:
                report.isPartial = true
                warn(
                    .kscrashIncomplete,
                    "KSCrash marked the report incomplete: writing it stopped part way",
                    value,
                    Self.path(keyPath, key)
                )
            default:
                break
            }
            unknown.append(JSONValue.Member(key: key, value: value.materialized))
        }
        if !asi.isEmpty { report.applicationSpecificInformation = asi }
        if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
        return report
    }

    // MARK: Header and system

    private mutating func readHeader(
        _ section: JSONElement,
        keyPath: String,
        into report: inout CrashReport,
        unknown: inout [JSONValue.Member]
    ) {
        guard expectObject(section, keyPath) else { return }
        report.incidentID = text(section.member("id"))
        report.process = nonEmpty(text(section.member("process_name")))
        if let time = section.member("timestamp") {
            report.date = date(time, keyPath: Self.path(keyPath, "timestamp"))
        }
        if let version = section.member("version") {
            if version.kind == .object {
                let major = version.member("major")?.int64 ?? 0
                let minor = version.member("minor")?.int64 ?? 0
                report.reportVersion = "\(major).\(minor)"
            } else {
                report.reportVersion = text(version)
            }
        }
        keepUnmapped(section, known: ["id", "process_name", "timestamp", "version"], as: "report", in: &unknown)
    }

    private mutating func date(_ element: JSONElement, keyPath: String) -> AppleTimestamp? {
        if element.kind == .null { return nil }
        guard let date = KSCrashTimestamp.date(element) else {
            warn(
                .kscrashUnknownTimestamp,
                "the timestamp is not a date this reader knows (ISO 8601, or epoch seconds or µs)",
                element,
                keyPath
            )
            return nil
        }
        return date
    }

    static let knownSystemKeys: Set<String> = [
        "system_name", "system_version", "os_version", "machine", "CFBundleIdentifier", "CFBundleShortVersionString",
        "CFBundleVersion", "CFBundleExecutablePath", "process_id", "process_name", "parent_process_id",
        "parent_process_name", "cpu_arch", "app_start_time", "device_app_hash",
    ]

    private mutating func readSystem(
        _ system: JSONElement,
        keyPath: String,
        into report: inout CrashReport,
        unknown: inout [JSONValue.Member]
    ) {
        guard expectObject(system, keyPath) else { return }
        let name = nonEmpty(text(system.member("system_name")))
        let version = nonEmpty(text(system.member("system_version")))
        let build = nonEmpty(text(system.member("os_version")))
        if let name {
            var written = name
            if let version { written += " " + version }
            if let build { written += " (\(build))" }
            report.osVersion = written
        }
        report.hardwareModel = nonEmpty(text(system.member("machine")))
        report.bundleId = nonEmpty(text(system.member("CFBundleIdentifier")))
        report.appVersion = nonEmpty(text(system.member("CFBundleShortVersionString")))
        report.appBuild = nonEmpty(text(system.member("CFBundleVersion")))
        report.path = nonEmpty(text(system.member("CFBundleExecutablePath")))
        report.pid = system.member("process_id")?.int64
        report.process =
            report.process ?? nonEmpty(text(system.member("process_name")))
            ?? nonEmpty(text(system.member("CFBundleExecutable")))
        report.parentPid = system.member("parent_process_id")?.int64
        report.parentProcess = nonEmpty(text(system.member("parent_process_name")))
        report.crashReporterKey = nonEmpty(text(system.member("device_app_hash")))
        if let start = system.member("app_start_time") {
            report.launchTime = date(start, keyPath: Self.path(keyPath, "app_start_time"))
        }
        architecture = nonEmpty(text(system.member("cpu_arch")))
        if architecture == nil, let type = system.member("cpu_type")?.int64 {
            architecture = KSCrashNames.architecture(
                cpuType: type,
                cpuSubtype: system.member("cpu_subtype")?.int64 ?? 0
            )
        }
        if let architecture { report.codeType = KSCrashNames.codeType(architecture: architecture) }
        keepUnmapped(system, known: Self.knownSystemKeys, as: "system", in: &unknown)
    }

    // MARK: Recrash

    /// The report the crash handler wrote when it crashed while writing this one: read, summed up in a block,
    /// said in a diagnostic, and kept verbatim in the unknown keys by the caller.
    private mutating func readRecrash(_ recrash: JSONElement, keyPath: String, into report: inout CrashReport) {
        let inner = readReport(recrash, keyPath: keyPath, allowRecrash: false)
        var lines: [String] = []
        if let exception = inner.exception {
            let type = [exception.type, exception.signal.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
            if !type.isEmpty { lines.append("Exception Type:  " + type) }
            if let codes = exception.codes { lines.append("Exception Codes: " + codes) }
        }
        if let crashed = inner.crashedThread, let thread = inner.threads.first(where: { $0.index == crashed }) {
            lines.append("Crashed Thread:  \(crashed)" + (thread.name.map { "  \($0)" } ?? ""))
            for frame in thread.frames.prefix(12) {
                var line = "\(frame.index)  \(frame.image ?? "???")  \(frame.address?.description ?? "???")"
                if let symbol = frame.symbol { line += "  " + symbol + (frame.symbolOffset.map { " + \($0)" } ?? "") }
                lines.append(line)
            }
        }
        for block in inner.blocks where block.title == "CrashDoctor Diagnosis" {
            lines += block.lines.map { "Recrash Diagnosis: " + $0 }
        }
        report.blocks.append(CrashReport.Block(title: "Recrash Report", lines: lines))
        warn(
            .kscrashRecrash,
            "the crash handler crashed while writing this report: its own report (recrash_report) is kept "
                + "verbatim and summed up in the Recrash Report block",
            recrash,
            keyPath
        )
    }

    // MARK: Values

    /// A string value capped at ``CrashParseLimits/maxStringBytes``, or a number's digits as written.
    func text(_ element: JSONElement?) -> String? {
        guard let element else { return nil }
        switch element.kind {
        case .string:
            return element.rawBytes.withBorrowedBytes {
                tally.cappedString(raw: $0, hasEscapes: $0.firstIndex(of: 0x5C) != nil)
            }
        case .number:
            return element.rawText
        default:
            return nil
        }
    }

    func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// An unsigned value: a number (negative ones as their 64-bit pattern, as KSCrash writes registers) or a hex
    /// string (Bugsnag's `"0x1"`).
    func unsigned(_ element: JSONElement?) -> UInt64? {
        guard let element else { return nil }
        switch element.kind {
        case .number:
            return element.uint64 ?? element.int64.map { UInt64(bitPattern: $0) }
        case .string:
            return text(element).flatMap { HexValue(parsing: Substring($0))?.value }
        default:
            return nil
        }
    }

    static func path(_ base: String, _ key: String) -> String {
        base.isEmpty ? key : base + "." + key
    }

    mutating func warn(_ code: Diagnostic.Code, _ message: String, _ element: JSONElement, _ keyPath: String) {
        // Capped per message, as before codes: one kind of bad value does not hide another of the same code.
        valueWarnings.add(
            code,
            .warning,
            message,
            at: element.document.location(ofByte: element.byteOffset, keyPath: keyPath),
            group: message
        )
    }

    /// True for an object; otherwise says what the value is instead.
    mutating func expectObject(_ element: JSONElement, _ keyPath: String) -> Bool {
        expect(.object, element, "an object", keyPath)
    }

    /// True for an array; otherwise says that an array of `items` was expected.
    mutating func expectArray(_ element: JSONElement, of items: String, _ keyPath: String) -> Bool {
        expect(.array, element, "an array of " + items, keyPath)
    }

    /// True when `element` is of `kind`; a null is an absent value, anything else a warning that it was skipped.
    private mutating func expect(_ kind: JSONElement.Kind, _ element: JSONElement, _ what: String, _ keyPath: String)
        -> Bool
    {
        if element.kind == kind { return true }
        if element.kind != .null {
            warn(.kscrashWrongType, "expected " + what + "; the value was skipped", element, keyPath)
        }
        return false
    }

    /// The members of `object` not in `known`, kept under `name` in the unknown keys.
    func keepUnmapped(_ object: JSONElement, known: Set<String>, as name: String, in unknown: inout [JSONValue.Member])
    {
        var kept: [JSONValue.Member] = []
        object.forEachMember { key, value in
            if !known.contains(key) { kept.append(JSONValue.Member(key: key, value: value.materialized)) }
        }
        if !kept.isEmpty { unknown.append(JSONValue.Member(key: name, value: .object(kept))) }
    }
}
