import APMInspectCore
import ByteAccess

/// Reads Apple crash reports of every shape into one ``CrashReport``.
///
/// The content decides, never the file name: a JSON body is read as bug_type 309, text as the legacy format
/// (with or without a 109 header), Console's translated export by its embedded JSON when present. Panics,
/// stackshots, JetsamEvents and other non-crash `.ips` are refused with `CrashParseError` code `notACrashReport`.
public struct CrashReportParser: Sendable {
    /// Values nested past the depth limit are skipped with a warning: a body's unknown members are kept, and
    /// their depth must not stop the report around them being read.
    public var json: JSONParseOptions
    /// How much of a report is modelled; see ``CrashParseLimits``.
    public var limits: CrashParseLimits

    /// A parser with the given JSON options and limits.
    public init(
        json: JSONParseOptions = JSONParseOptions(skipsTooDeep: true),
        limits: CrashParseLimits = CrashParseLimits()
    ) {
        self.json = json
        self.limits = limits
    }

    /// Parses a whole file.
    ///
    /// - Throws: ``CrashParseError`` when the file is another kind of report or holds nothing readable.
    public func parse(_ bytes: [UInt8]) throws(CrashParseError) -> CrashParseResult {
        try parse(IPSContainer(bytes: bytes))
    }

    /// True when the container's header or content says it is a crash report.
    ///
    /// OS faults (308), system watchdog crashes (409), terminating stackshots (509) and run-loop hangs are read
    /// as crash reports when their body is shaped like one (`BugType.hasCrashShapedBody`); otherwise they stay
    /// the opaque summary of their type.
    package static func isCrashReport(_ container: IPSContainer) -> Bool {
        if SpindumpReader.isHangReport(container) { return true }
        if let bugType = container.bugType {
            if bugType.family == .crash || bugType.family == .excResource { return true }
            return bugType.hasCrashShapedBody && hasCrashShapedBody(container)
        }
        return hasCrashMarkers(container)
    }

    /// True for the spindump text of a hang (a macOS `.hang` or `.spin` report, or an `.ips` hang report with that
    /// body): plain text to the sniffer, read as a crash report of the hang.
    package static func isSpindumpHangReport(_ container: IPSContainer) -> Bool {
        SpindumpReader.isHangReport(container)
    }

    /// True when the body reads as a crash report: a JSON object with threads and an exception, images or a
    /// process name, or text with the fields of a crash report.
    static func hasCrashShapedBody(_ container: IPSContainer) -> Bool {
        switch container.bodyKind {
        case .json:
            guard let document = try? container.parseJSONBody(options: CrashReportParser().json) else { return false }
            return CrashJSONBody.locate(in: document)?.body.isCrashShaped ?? false
        case .text: return hasCrashMarkers(container)
        default: return false
        }
    }

    private static func hasCrashMarkers(_ container: IPSContainer) -> Bool {
        guard container.bodyKind == .text else { return false }
        return container.body.withBorrowedBytes { buffer in
            let prefix = buffer.prefix(16_384)
            return markers.contains { ContentSniffer.containsText(prefix, $0) }
        }
    }

    /// The first line of Console's export; searched for across the whole body of every text report.
    private static let translationMarker: StaticString = "Translated Report (Full Report Below)"
    /// Where the search starts: the `B` of `Below`, far rarer in a report than the `T` of every `Thread` line.
    private static let translationMarkerAnchor = 31

    private static let markers = [
        "Incident Identifier:", "Exception Type:", "Crashed Thread:", "Triggered by Thread:",
        "Translated Report (Full Report Below)", "Hardware Model:", "Termination Reason:", "Binary Images:",
    ]

    /// Parses a file already split into header and body.
    ///
    /// - Throws: ``CrashParseError`` when the file is another kind of report or holds nothing readable.
    package func parse(_ container: IPSContainer) throws(CrashParseError) -> CrashParseResult {
        if SpindumpReader.isHangReport(container) {
            var diagnostics = container.diagnostics
            let report = SpindumpReader(limits: limits).read(container, diagnostics: &diagnostics)
            return CrashParseResult(report: report, diagnostics: diagnostics)
        }
        if let bugType = container.bugType, bugType.family != .crash, bugType.family != .excResource,
            !(bugType.hasCrashShapedBody && Self.hasCrashShapedBody(container))
        {
            throw CrashParseError(
                .notACrashReport,
                "bug_type \(bugType.code) (\(bugType.name)) is not a crash report",
                at: SourceLocation(byteOffset: 0, line: 1, column: 1, keyPath: "bug_type")
            )
        }
        var diagnostics = container.diagnostics
        var report: CrashReport
        // Where KSCrash's text appends the report of a crash in its own handler (`Handler crashed while reporting:`).
        var recrash: KSCrashRecrashText.Split?
        switch container.bodyKind {
        case .empty:
            guard let header = container.header else {
                throw CrashParseError(.unreadableBody, "the file is empty")
            }
            diagnostics.append(
                Diagnostic(.warning, .crashHeaderWithoutBody, "the report has a header but no body", at: nil)
            )
            report = CrashReport(sourceFormat: .fragment, header: header, isPartial: true)
            report.process = header.name
            report.osVersion = header.osVersion
            report.incidentID = header.incidentID
        case .json:
            report = try readJSON(container, diagnostics: &diagnostics)
        case .text:
            let mentionsTranslation = container.body.withBorrowedBytes {
                TextBytes($0).contains(Self.translationMarker, anchor: Self.translationMarkerAnchor)
            }
            if mentionsTranslation,
                let translated = try? readTranslated(container, diagnostics: &diagnostics)
            {
                report = translated
            } else {
                (report, recrash) = readText(container, diagnostics: &diagnostics)
            }
            if report.threads.isEmpty && report.exception == nil && report.process == nil {
                throw CrashParseError(
                    .unreadableBody,
                    "no crash report fields, threads or frames found in the text",
                    at: SourceLocation(byteOffset: container.bodyOrigin.byteOffset, line: container.bodyOrigin.line)
                )
            }
        }
        // Apple's run-loop and third-party hang reports (222, 223, 228, 310 …) have a crash report's shape but
        // record a hang, not a crash.
        if report.category == nil, container.bugType?.family == .hang { report.category = .hang }
        report.analyze()
        if let recrash {
            let (read, findings) = KSCrashRecrashText.readRecrash(
                container.body,
                split: recrash,
                main: report,
                origin: container.bodyOrigin,
                limits: limits
            )
            report.recrashReport = read
            diagnostics += findings
        }
        if report.sourceFormat == .fragment {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .crashFragment,
                    "the report is a fragment: no header, or it starts in the middle",
                    at: nil
                )
            )
        }
        return CrashParseResult(report: report, diagnostics: diagnostics)
    }

    /// A text body: the report, and where a KSCrash recrash report follows it (read after the report is analysed).
    ///
    /// With a recrash, the report is read from the part before `Handler crashed while reporting:` only, so its crashed
    /// thread, exception and frames are its own; a body that holds nothing before that line is the recrash alone.
    private func readText(_ container: IPSContainer, diagnostics: inout [Diagnostic])
        -> (CrashReport, KSCrashRecrashText.Split?)
    {
        let format: CrashReport.SourceFormat = container.header == nil ? .text : .ipsText
        let split = KSCrashRecrashText.locate(in: container.body)
        var body = container.body
        var origin = container.bodyOrigin
        var recrashOnly = false
        if let split {
            let main = body[..<split.markerStart]
            if main.contains(where: { !TextBytes.isBlank($0) && $0 != 0x0A && $0 != 0x0D }) {
                body = Array(main)
            } else {
                // Only the handler's report: it is read as the report, which is incomplete.
                recrashOnly = true
                body = Array(container.body[split.recrashStart...])
                origin = TextOrigin(
                    byteOffset: origin.byteOffset + split.recrashStart,
                    line: origin.line + split.markerLine + 1
                )
            }
        }
        var reader = CrashTextReader(format: format, header: container.header, origin: origin, limits: limits)
        var report = reader.read(body: body)
        diagnostics += reader.diagnostics
        guard let split else { return (report, nil) }
        let location = SourceLocation(
            byteOffset: container.bodyOrigin.byteOffset + split.markerStart,
            line: container.bodyOrigin.line + split.markerLine,
            column: 1
        )
        report.isPartial = true
        if recrashOnly {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashRecrashOnly,
                    "the file holds only a recrash report (the crash handler crashed before the main report was "
                        + "written): that report was read, and is incomplete",
                    at: location
                )
            )
            return (report, nil)
        }
        diagnostics.append(
            Diagnostic(
                .warning,
                .kscrashRecrashText,
                "the crash handler crashed while writing this report (line \(location.line ?? 0): Handler crashed "
                    + "while reporting): the report is read from the text before that line, and the handler's own "
                    + "report after it as recrashReport; this report may be incomplete",
                at: location
            )
        )
        return (report, split)
    }

    private func readJSON(_ container: IPSContainer, diagnostics: inout [Diagnostic]) throws(CrashParseError)
        -> CrashReport
    {
        let document: JSONDocument
        do {
            document = try container.parseJSONBody(options: json)
        } catch {
            throw CrashParseError(
                .unreadableBody,
                "the body is not readable JSON: \(error.message)",
                at: error.location
            )
        }
        diagnostics += document.diagnostics + document.depthCuts
        // A JSON body followed by text (macOS appends `System Profile:`), a header line too long to be read as one
        // (see ``IPSContainer``) before it, or a body cut into pieces by a stray `}`: see ``CrashJSONBody``.
        guard let (body, found) = CrashJSONBody.locate(in: document) else {
            throw CrashParseError(.unreadableBody, "no JSON object in the body")
        }
        guard CrashJSONBody.hasCrashKeys(body.main) else {
            // A body cut off before its first crash key is a truncated copy, not another kind of report.
            let cut = document.isTruncated ? ": the body is cut short after \(container.body.count) bytes" : ""
            throw CrashParseError(
                .notACrashReport,
                "the JSON body has no crash report keys (threads, procName, exception)\(cut)",
                at: document.location(ofByte: body.main.byteOffset)
            )
        }
        diagnostics += found
        var reader = CrashJSONReader(limits: limits)
        var report = reader.read(body, header: container.header)
        diagnostics += reader.diagnostics
        report.isPartial = report.isPartial || document.isTruncated
        return report
    }

    /// Console's export: a translated text part and, after a `Full Report` line, the `.ips` itself.
    private func readTranslated(
        _ container: IPSContainer,
        diagnostics: inout [Diagnostic]
    ) throws(CrashParseError) -> CrashReport? {
        // A byte search: the standard library's generic `firstRange(of:)` over the decoded text cost about 1.5 M
        // instructions for a 10 KB report.
        let marker: StaticString = "\nFull Report"
        let body = container.body
        guard let found = body.withBorrowedBytes({ $0.firstIndex(of: marker) }),
            let start = body[(found + marker.utf8CodeUnitCount)...].firstIndex(of: UInt8(ascii: "{"))
        else { return nil }
        let embedded = IPSContainer(bytes: Array(String(decoding: body[start...], as: UTF8.self).utf8))
        guard embedded.header != nil || embedded.bodyKind == .json else { return nil }
        var report = try readJSON(embedded, diagnostics: &diagnostics)
        report.sourceFormat = .translatedText
        return report
    }
}
