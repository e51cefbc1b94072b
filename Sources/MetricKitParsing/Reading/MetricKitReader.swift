import APMInspectCore
import ByteAccess

/// Reads MetricKit JSON as apps export it with `jsonRepresentation()`: an `MXDiagnosticPayload`, an
/// `MXMetricPayload`, an array of them, or a bare `MXCallStackTree`.
///
/// Every input is treated as hostile: the document is parsed with depth and size limits, the call-stack trees are
/// walked with an explicit stack and a frame budget, and anything of the wrong type becomes a finding with its key
/// path, never a failure of the whole file.
public struct MetricKitReader: Sendable {
    /// Nesting allowed in the document.
    ///
    /// A call-stack frame nests two levels (`subFrames` array and frame object), so the default admits stacks
    /// some 500 frames deep, as deep recursion produces.
    public var json: JSONParseOptions
    /// Frames read over the whole file; the rest of a tree is left out with a finding.
    public var maxFrames: Int
    /// Metric figures read over the whole file.
    public var maxMetricEntries: Int

    /// A reader that stops at `maxFrames` call-stack frames and `maxMetricEntries` metric figures over the whole file.
    public init(maxFrames: Int = 2_000_000, maxMetricEntries: Int = 200_000) {
        json = JSONParseOptions(maxDepth: 1024)
        self.maxFrames = maxFrames
        self.maxMetricEntries = maxMetricEntries
    }

    /// The keys that only MetricKit payloads and call-stack trees use.
    static let markerKeys = [
        "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics",
        "appLaunchDiagnostics", "memoryExceptionDiagnostics", "callStackRootFrames", "callStackPerThread",
        "diagnosticMetaData",
    ]
    static let metricMarkerKeys = [
        "applicationLaunchMetrics", "applicationExitMetrics", "cpuMetrics", "memoryMetrics",
        "applicationResponsivenessMetrics", "networkTransferMetrics", "diskIOMetrics", "applicationTimeMetrics",
        "gpuMetrics", "signpostMetrics", "cellularConditionMetrics", "animationMetrics", "displayMetrics",
        "locationActivityMetrics",
    ]
    /// Every key `recognise` looks for, found in one pass: the markers, then `timeStampBegin`, then the metric
    /// categories.
    private static let recognitionKeys = QuotedKeyFinder(markerKeys + ["timeStampBegin"] + metricMarkerKeys)

    /// True when `bytes` are JSON whose first 64 KiB use a MetricKit key (content only, never the file name).
    ///
    /// A key counts only when a colon follows it: a report about MetricKit files (this tool's own JSON output)
    /// names the keys as values.
    package static func recognise(_ bytes: [UInt8]) -> Bool {
        recognise(bytes, format: ContentSniffer.format(of: bytes))
    }

    /// ``recognise(_:)`` for bytes whose `ContentSniffer` format the caller has (`format` must be what the
    /// sniffer says of `bytes`): the inspector sniffs each file once for all its families.
    package static func recognise(_ bytes: [UInt8], format: ContentFormat) -> Bool {
        guard format == .json else { return false }
        return bytes.withBorrowedBytes { buffer in
            let prefix = buffer.prefix(1 << 16)
            let found = recognitionKeys.find(in: prefix)
            let markers = markerKeys.count
            if found[0..<markers].contains(true) { return true }
            // A metric payload: its time range and at least one metric category.
            return found[markers] && found[(markers + 1)...].contains(true)
        }
    }

    /// Reads a whole file.
    ///
    /// - Throws: `InputError` when the bytes are not JSON this reader can use (too deep, too large, empty, or
    ///   neither an object nor an array of objects).
    public func read(_ bytes: [UInt8]) throws(InputError) -> MetricKitReadResult {
        let document = try JSONDocument(bytes: bytes, options: json)
        var findings = MetricKitFindings(document: document)
        var budget = Budget(frames: maxFrames, entries: maxMetricEntries)
        let root = document.root
        var report = MetricKitReport()
        switch root.kind {
        case .object where !document.isFragmentList:
            report.payloads = [readPayload(root, keyPath: "", findings: &findings, budget: &budget)]
        case .array:
            report.isArray = !document.isFragmentList
            for (index, element) in root.elements.enumerated() {
                let path = "[\(index)]"
                guard
                    findings.expect(
                        element,
                        is: .object,
                        "an element of the array is not a payload object",
                        keyPath: path
                    )
                else { continue }
                report.payloads.append(readPayload(element, keyPath: path, findings: &findings, budget: &budget))
            }
        default:
            throw InputError(.wrongKind, "MetricKit JSON is an object or an array of payload objects")
        }
        return MetricKitReadResult(finishing: report, document: document, findings: findings)
    }

    /// What is left of the work allowed for one file.
    struct Budget {
        var frames: Int
        var entries: Int
        var framesExhausted = false
        var entriesExhausted = false
    }

    private func readPayload(
        _ object: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings,
        budget: inout Budget
    ) -> MetricKitPayload {
        let isTree = object.member("callStacks") != nil && object.member("callStackTree") == nil
        if isTree {
            // A bare MXCallStackTree (`callStackTree.jsonRepresentation()`), as SDKs keep them.
            var payload = MetricKitPayload(kind: .diagnostic, keyPath: keyPath)
            var diagnostic = MetricKitDiagnostic(kind: .callStackTree, keyPath: keyPath)
            diagnostic.callTree = readTree(object, keyPath: keyPath, findings: &findings, budget: &budget)
            payload.diagnostics = [diagnostic]
            return payload
        }
        var isMetric = false
        object.forEachMember { key, _ in
            if key == "metaData" || key.hasSuffix("Metrics") { isMetric = true }
        }
        var payload = MetricKitPayload(kind: isMetric ? .metric : .diagnostic, keyPath: keyPath)
        var unknown: [JSONValue.Member] = []
        var metrics = MetricKitMetrics()
        object.forEachMember { key, value in
            let path = Self.join(keyPath, key)
            switch key {
            case "timeStampBegin":
                payload.timeStampBegin = value.string
                payload.begin = value.string.flatMap(AppleTimestamp.init)
            case "timeStampEnd":
                payload.timeStampEnd = value.string
                payload.end = value.string.flatMap(AppleTimestamp.init)
            case "appVersion" where isMetric:
                metrics.appVersion = value.string
            case "metaData" where isMetric:
                var ignored: [String: JSONElement] = [:]
                metrics.metadata = readMetadata(value, keyPath: path, measurements: &ignored, findings: &findings)
            default:
                if let kind = MetricKitDiagnostic.Kind.payloadKeys[key] {
                    guard findings.expect(value, is: .array, "\(key) is not an array", keyPath: path) else {
                        unknown.append(JSONValue.Member(key: key, value: value.materialized))
                        return
                    }
                    for (index, element) in value.elements.enumerated() {
                        let itemPath = "\(path)[\(index)]"
                        guard findings.expect(element, is: .object, "a diagnostic is not an object", keyPath: itemPath)
                        else { continue }
                        payload.diagnostics.append(
                            readDiagnostic(element, kind: kind, keyPath: itemPath, findings: &findings, budget: &budget)
                        )
                    }
                } else if isMetric, value.kind == .object || value.kind == .array {
                    readMetricCategory(key, value, into: &metrics, findings: &findings, budget: &budget)
                } else {
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                }
            }
        }
        if isMetric {
            metrics.exits = Self.exits(from: metrics.entries)
            payload.metrics = metrics
        }
        if !unknown.isEmpty { payload.unknownKeys = .object(unknown) }
        return payload
    }

    static func join(_ prefix: String, _ key: String) -> String {
        prefix.isEmpty ? key : prefix + "." + key
    }

    /// A flag as MetricKit writes it: `true`/`false`, or `1`/`0` in some payloads.
    static func flag(_ value: JSONElement) -> Bool? {
        value.bool ?? value.int64.map { $0 != 0 }
    }
}

extension MetricKitDiagnostic.Kind {
    /// The kinds by their payload key.
    static let payloadKeys: [String: MetricKitDiagnostic.Kind] = {
        var table: [String: MetricKitDiagnostic.Kind] = [:]
        for kind in allCases where kind != .callStackTree { table[kind.payloadKey] = kind }
        return table
    }()
}
