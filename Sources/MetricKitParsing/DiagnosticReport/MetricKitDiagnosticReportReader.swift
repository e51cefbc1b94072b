import APMInspectCore
import ByteAccess

/// Reads the MetricKit of iOS/macOS 27 as apps save it with `JSONEncoder`: a `DiagnosticReport` (`timeRange`,
/// `environment`, and a `result` that is one of crash, hang, CPU exception, disk-write exception, launch or memory
/// exception), an array of them, or a bare `CallStackTree`, into the same ``MetricKitReport`` as
/// ``MetricKitReader`` reads `jsonRepresentation()` into, so every view of MetricKit reads both.
///
/// No public sample of this JSON exists: the shape is the one Swift's synthesized `Codable` gives Apple's
/// declarations (an enum case with an unlabelled value under `_0`, a `DateInterval` as `start` seconds since 2001
/// and `duration`, a `Measurement` as `value` and `unit.symbol`, `[UUID: …]` as a flat array). Other reasonable
/// forms are read with a `metrickit.codable-variant` note rather than refused. The limits are those of
/// ``MetricKitReader`` (nesting, frames per file, findings listed), with the same codes for the same findings.
package struct MetricKitDiagnosticReportReader: Sendable {
    /// The nesting and frame limits, and the call-stack tree and crash readers both shapes share.
    package var reader: MetricKitReader

    /// A reader with `reader`'s limits.
    package init(reader: MetricKitReader = MetricKitReader()) {
        self.reader = reader
    }

    /// The diagnostic kinds by the name of their `DiagnosticResult` case.
    static let resultCases: [String: MetricKitDiagnostic.Kind] = [
        "crash": .crash, "hang": .hang, "cpuException": .cpuException, "diskWriteException": .diskWriteException,
        "appLaunch": .appLaunch, "memoryException": .memoryException,
    ]

    /// Keys `recognise` looks for, in one pass: the report's own three, the Codable tree's two, the result's cases,
    /// then the payload keys of `jsonRepresentation()`, which send the file to ``MetricKitReader`` instead.
    private static let reportKeys = ["result", "environment", "timeRange", "callStackThreads", "rootFrames"]
    private static let caseKeys = [
        "crash", "hang", "cpuException", "diskWriteException", "appLaunch", "memoryException",
    ]
    private static let legacyKeys =
        MetricKitReader.markerKeys.filter { $0.hasSuffix("Diagnostics") } + [
            "diagnosticMetaData", "timeStampBegin",
        ]
    private static let recognitionKeys = QuotedKeyFinder(reportKeys + caseKeys + legacyKeys)

    /// True when `bytes` are JSON whose first 64 KiB read as a 27 `DiagnosticReport` or `CallStackTree`.
    ///
    /// That is a `result` holding a case name beside `environment` or `timeRange`, or the tree's
    /// `callStackThreads` or `rootFrames`, and none of the payload keys of `jsonRepresentation()` (the payload
    /// reader's files, whose `callStackPerThread` it shares). Keys count only when a colon follows them, so a report
    /// about such files (this tool's JSON) is not one. `format` is what `ContentSniffer` says of `bytes`.
    package static func recognise(_ bytes: [UInt8], format: ContentFormat) -> Bool {
        guard format == .json else { return false }
        return bytes.withBorrowedBytes { buffer in
            let prefix = buffer.prefix(1 << 16)
            let found = recognitionKeys.find(in: prefix)
            let cases = reportKeys.count..<(reportKeys.count + caseKeys.count)
            if found[cases.upperBound...].contains(true) { return false }
            let report = found[0] && (found[1] || found[2]) && found[cases].contains(true)
            return report || found[3] || found[4]
        }
    }

    /// Reads a whole file.
    ///
    /// - Throws: `InputError` when the bytes are not JSON this reader can use (too deep, too large, empty, or
    ///   neither an object nor an array of objects).
    package func read(_ bytes: [UInt8]) throws(InputError) -> MetricKitReadResult {
        let document = try JSONDocument(bytes: bytes, options: reader.json)
        var findings = MetricKitFindings(document: document)
        var budget = MetricKitReader.Budget(frames: reader.maxFrames, entries: reader.maxMetricEntries)
        let root = document.root
        var report = MetricKitReport()
        switch root.kind {
        case .object where !document.isFragmentList:
            report.payloads = [readReport(root, keyPath: "", findings: &findings, budget: &budget)]
        case .array:
            report.isArray = !document.isFragmentList
            for (index, element) in root.elements.enumerated() {
                let path = "[\(index)]"
                guard element.kind == .object else {
                    findings.add(
                        .warning,
                        .metricKitWrongType,
                        "an element of the array is not a diagnostic report object",
                        at: element,
                        keyPath: path
                    )
                    continue
                }
                report.payloads.append(readReport(element, keyPath: path, findings: &findings, budget: &budget))
            }
        default:
            throw InputError(.wrongKind, "MetricKit JSON is an object or an array of diagnostic report objects")
        }
        return MetricKitReadResult(finishing: report, document: document, findings: findings)
    }

    /// One `DiagnosticReport` as one diagnostic payload holding its one diagnostic (or none, when its result is
    /// unknown or missing), or a bare `CallStackTree` as the payload reader reads a bare `MXCallStackTree`.
    private func readReport(
        _ object: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings,
        budget: inout MetricKitReader.Budget
    ) -> MetricKitPayload {
        var payload = MetricKitPayload(kind: .diagnostic, keyPath: keyPath)
        if object["result"] == nil, object["callStackThreads"] != nil || object["callStacks"] != nil {
            var diagnostic = MetricKitDiagnostic(kind: .callStackTree, keyPath: keyPath)
            diagnostic.callTree = readTree(object, keyPath: keyPath, findings: &findings, budget: &budget)
            payload.diagnostics = [diagnostic]
            return payload
        }
        var metadata = MetricKitMetadata()
        var result: JSONElement?
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            switch key {
            case "result": result = value
            case "environment": metadata = readEnvironment(value, keyPath: path, findings: &findings)
            case "timeRange": readTimeRange(value, into: &payload, keyPath: path, findings: &findings)
            default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if let result {
            let path = MetricKitReader.join(keyPath, "result")
            if let diagnostic = readResult(
                result,
                keyPath: path,
                metadata: metadata,
                unknown: &unknown,
                findings: &findings,
                budget: &budget
            ) {
                payload.diagnostics = [diagnostic]
            }
        } else {
            findings.add(
                .warning,
                .metricKitNoResult,
                "the diagnostic report has no result: it holds no diagnostic",
                at: object,
                keyPath: keyPath
            )
        }
        if !unknown.isEmpty { payload.unknownKeys = .object(unknown) }
        return payload
    }
}
