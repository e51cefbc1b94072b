import APMInspectCore

/// Reads the JSON crash reports KSCrash writes, and those of the SDKs built on it (SentryCrash, Bugsnag), into
/// the same ``CrashReport`` model as Apple's reports.
///
/// Shapes read: the 2012 layout (no `report` object, `crash_id`, images inside `crash`), 2.x (`report.version`
/// an object), 3.x string versions with ISO, second or microsecond timestamps, minimal recrash reports and a file
/// holding only `recrash_report`. The JSON is read leniently: a trailing comma or a cut-off file gives a partial
/// report with the repairs as diagnostics. docs/kscrash.md lists the fields read and what is not modelled.
public struct KSCrashReader: Sendable {
    /// Values nested past the depth limit are skipped with a warning: the `user` section is the application's
    /// own data, and its depth must not stop the report around it being read.
    public var json: JSONParseOptions
    /// How much of a report is modelled; see ``CrashParseLimits``.
    public var limits: CrashParseLimits

    /// A reader with the given JSON options and limits.
    public init(
        json: JSONParseOptions = JSONParseOptions(skipsTooDeep: true),
        limits: CrashParseLimits = CrashParseLimits()
    ) {
        self.json = json
        self.limits = limits
    }

    /// True when `root` is a KSCrash report: a `report` object next to `crash`, `binary_images` or `system`; the
    /// 2012 layout's `crash` with `crash_id` or `report_version_major`; or only a `recrash_report` that is one.
    package static func recognises(_ root: JSONElement) -> Bool {
        recognises(root, depth: 0)
    }

    private static func recognises(_ root: JSONElement, depth: Int) -> Bool {
        guard root.kind == .object else { return false }
        let crash = root.member("crash")
        if let report = root.member("report"), report.kind == .object,
            crash?.kind == .object || root.member("binary_images")?.kind == .array
                || root.member("system")?.kind == .object
        {
            return true
        }
        if crash?.kind == .object, root.member("crash_id") != nil || root.member("report_version_major") != nil {
            return true
        }
        if depth == 0, root.count == 1, let recrash = root.member("recrash_report") {
            return recognises(recrash, depth: 1)
        }
        return false
    }

    /// Parses a whole file.
    ///
    /// - Throws: ``CrashParseError`` when the bytes are not JSON, or JSON that is not a KSCrash report.
    public func parse(_ bytes: [UInt8]) throws(CrashParseError) -> CrashParseResult {
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: bytes, options: json)
        } catch {
            throw CrashParseError(.unreadableBody, "not readable JSON: \(error.message)", at: error.location)
        }
        return try parse(document)
    }

    /// Maps a parsed document.
    ///
    /// - Throws: ``CrashParseError`` when the document is not a KSCrash report.
    package func parse(_ document: JSONDocument) throws(CrashParseError) -> CrashParseResult {
        var diagnostics = document.diagnostics
        if !document.diagnostics.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashLenientJSON,
                    "the report is not strict JSON: it was read leniently (\(document.diagnostics.count) repair(s))",
                    at: nil
                )
            )
        }
        diagnostics += document.depthCuts
        var root = document.root
        if document.isFragmentList {
            guard let first = root.elements.first(where: { Self.recognises($0) }) else {
                throw CrashParseError(.notACrashReport, "no KSCrash report object in the JSON")
            }
            root = first
            diagnostics.append(
                Diagnostic(.note, .kscrashSeveralValues, "more than one JSON value: the first KSCrash report was read")
            )
        }
        guard Self.recognises(root) else {
            throw CrashParseError(
                .notACrashReport,
                "the JSON has no KSCrash report keys (report with crash, binary_images or system)",
                at: document.location(ofByte: root.byteOffset)
            )
        }
        var mapping = KSCrashMapping(limits: limits)
        var report = mapping.read(root)
        diagnostics += mapping.valueWarnings.finished() + mapping.diagnostics
        if document.isTruncated || !document.diagnostics.isEmpty { report.isPartial = true }
        let faultAddress = report.exception?.faultAddress
        report.analyze()
        // KSCrash's `error.address` is where the fault was; decoding Apple's codes would take the Mach subcode,
        // which KSCrash leaves 0 when it read the address from the thread state.
        if let faultAddress { report.exception?.faultAddress = faultAddress }
        // A hang the app came back from and a sampling profile are reports, not crashes.
        if report.category == .hang || report.category == .profile { report.isNotACrash = true }
        return CrashParseResult(report: report, diagnostics: diagnostics)
    }
}
