import APMInspectCore

extension MetricKitReader {
    /// Keys of `diagnosticMetaData` that belong to the diagnostic (its measurements and crash facts).
    static let diagnosticKeys: Set<String> = [
        "hangDuration", "totalCPUTime", "totalSampledTime", "writesCaused", "launchDuration", "exceptionType",
        "exceptionCode", "signal", "terminationReason", "virtualMemoryRegionInfo", "objectiveCexceptionReason",
        "objectiveCExceptionReason", "exceptionReason",
    ]

    func readDiagnostic(
        _ object: JSONElement,
        kind: MetricKitDiagnostic.Kind,
        keyPath: String,
        findings: inout MetricKitFindings,
        budget: inout Budget
    ) -> MetricKitDiagnostic {
        var diagnostic = MetricKitDiagnostic(kind: kind, keyPath: keyPath)
        // The diagnostic's own facts sit in `diagnosticMetaData` in every payload seen; they are read at the top
        // level of the diagnostic as well, where the metadata is absent.
        var facts: [String: JSONElement] = [:]
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = Self.join(keyPath, key)
            switch key {
            case "version": diagnostic.version = value.string ?? value.rawText
            case "diagnosticMetaData":
                diagnostic.metadata = readMetadata(value, keyPath: path, measurements: &facts, findings: &findings)
            case "callStackTree":
                guard findings.expect(value, is: .object, "callStackTree is not an object", keyPath: path) else {
                    return
                }
                diagnostic.callTree = readTree(value, keyPath: path, findings: &findings, budget: &budget)
            default:
                if Self.diagnosticKeys.contains(key) {
                    if facts[key] == nil { facts[key] = value }
                } else {
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                }
            }
        }
        if !unknown.isEmpty { diagnostic.unknownKeys = .object(unknown) }
        func measurement(_ key: String) -> MetricKitMeasurement? {
            guard let value = facts[key] else { return nil }
            if let text = value.string { return MetricKitMeasurement(raw: text) }
            if value.kind == .number, let text = value.rawText { return MetricKitMeasurement(raw: text) }
            findings.add(
                .warning,
                .metricKitWrongType,
                "\(key) is neither text nor a number",
                at: value,
                keyPath: Self.join(keyPath, key)
            )
            return nil
        }
        func integer(_ key: String) -> Int64? {
            guard let value = facts[key] else { return nil }
            if let number = value.int64 { return number }
            if let text = value.string, let number = Int64(text.trimmingASCIIWhitespace()) { return number }
            findings.add(
                .warning,
                .metricKitWrongType,
                "\(key) is not an integer",
                at: value,
                keyPath: Self.join(keyPath, key)
            )
            return nil
        }
        diagnostic.hangDuration = measurement("hangDuration")
        diagnostic.totalCPUTime = measurement("totalCPUTime")
        diagnostic.totalSampledTime = measurement("totalSampledTime")
        diagnostic.writesCaused = measurement("writesCaused")
        diagnostic.launchDuration = measurement("launchDuration")
        diagnostic.exceptionType = integer("exceptionType")
        diagnostic.exceptionCode = integer("exceptionCode")
        diagnostic.signal = integer("signal")
        diagnostic.terminationReason = facts["terminationReason"]?.string
        diagnostic.virtualMemoryRegionInfo = facts["virtualMemoryRegionInfo"]?.string
        let reason =
            facts["objectiveCexceptionReason"] ?? facts["objectiveCExceptionReason"] ?? facts["exceptionReason"]
        if let reason, reason.kind == .object {
            diagnostic.objectiveCException = Self.readObjCException(reason)
        }
        if kind == .crash {
            diagnostic.crashReport = crashReport(for: diagnostic, findings: &findings)
        }
        return diagnostic
    }

    /// Reads `diagnosticMetaData` (or a metric payload's `metaData`); the diagnostic's own facts go to `facts`.
    func readMetadata(
        _ object: JSONElement,
        keyPath: String,
        measurements facts: inout [String: JSONElement],
        findings: inout MetricKitFindings
    ) -> MetricKitMetadata {
        var metadata = MetricKitMetadata()
        guard findings.expect(object, is: .object, "the metadata is not an object", keyPath: keyPath) else {
            return metadata
        }
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            switch key {
            case "appVersion": metadata.appVersion = value.string ?? value.rawText
            case "appBuildVersion": metadata.appBuildVersion = value.string ?? value.rawText
            case "osVersion": metadata.osVersion = value.string
            case "deviceType": metadata.deviceType = value.string
            case "regionFormat": metadata.regionFormat = value.string
            case "platformArchitecture": metadata.platformArchitecture = value.string
            case "bundleIdentifier": metadata.bundleIdentifier = value.string
            case "pid": metadata.pid = value.int64 ?? value.string.flatMap { Int64($0) }
            case "lowPowerModeEnabled": metadata.lowPowerModeEnabled = Self.flag(value)
            case "isTestFlightApp": metadata.isTestFlightApp = Self.flag(value)
            default:
                if Self.diagnosticKeys.contains(key) {
                    facts[key] = value
                } else {
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                }
            }
        }
        if let written = metadata.osVersion {
            let parsed = OSVersion(parsing: written)
            metadata.osName = parsed.name.isEmpty ? nil : parsed.name
            metadata.osVersionNumber = parsed.version.isEmpty ? nil : parsed.version
            metadata.osBuild = parsed.build.isEmpty ? nil : parsed.build
        }
        if !unknown.isEmpty { metadata.unknownKeys = .object(unknown) }
        return metadata
    }

    static func readObjCException(_ object: JSONElement) -> MetricKitObjCException {
        var exception = MetricKitObjCException()
        object.forEachMember { key, value in
            switch key {
            case "exceptionName", "name": exception.name = value.string
            case "composedMessage", "composed_message": exception.message = value.string
            case "formatString", "format_string": exception.formatString = value.string
            case "arguments": exception.arguments = value.strings
            case "className", "class": exception.className = value.string
            case "exceptionType", "type": exception.type = value.string
            default: break
            }
        }
        return exception
    }
}
