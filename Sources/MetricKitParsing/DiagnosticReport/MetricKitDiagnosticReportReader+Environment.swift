import APMInspectCore

extension MetricKitDiagnosticReportReader {
    /// Seconds from 1970-01-01 to 2001-01-01, the reference date of `Date`'s default encoding.
    static let referenceDateOffset = 978_307_200.0

    /// Reads `DiagnosticReport.Environment` into the metadata the payload reader fills from `diagnosticMetaData`.
    ///
    /// `osVersion` is an `OSVersion` (`platform`, `number`, `buildNumber`) there; it is also written back as the
    /// one text of `jsonRepresentation()` (`iPhone OS 27.0 (24A5260a)`), which the crash model and the fleet read.
    /// `signpostData` and any key not modelled go to the metadata's unknown keys, verbatim.
    func readEnvironment(
        _ object: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings
    ) -> MetricKitMetadata {
        var metadata = MetricKitMetadata()
        guard object.kind == .object else {
            findings.add(
                .warning,
                .metricKitWrongType,
                "the environment is not an object",
                at: object,
                keyPath: keyPath
            )
            return metadata
        }
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            switch key {
            case "applicationVersion": metadata.appVersion = value.string ?? value.rawText
            case "applicationBuildVersion": metadata.appBuildVersion = value.string ?? value.rawText
            case "appVersion", "appBuildVersion":
                findings.add(
                    .note,
                    .metricKitCodableVariant,
                    "\(key) is the jsonRepresentation() name of application\(key.dropFirst(3)): read as such",
                    at: value,
                    keyPath: path
                )
                if key == "appVersion" {
                    metadata.appVersion = metadata.appVersion ?? value.string ?? value.rawText
                } else {
                    metadata.appBuildVersion = metadata.appBuildVersion ?? value.string ?? value.rawText
                }
            case "osVersion": readOSVersion(value, into: &metadata, keyPath: path, findings: &findings)
            case "deviceType": metadata.deviceType = value.string
            case "regionFormat": metadata.regionFormat = value.string
            case "platformArchitecture": metadata.platformArchitecture = value.string
            case "bundleIdentifier": metadata.bundleIdentifier = value.string
            case "pid": metadata.pid = value.int64 ?? value.string.flatMap { Int64($0) }
            case "lowPowerModeEnabled": metadata.lowPowerModeEnabled = value.bool ?? value.int64.map { $0 != 0 }
            case "isTestFlightApp": metadata.isTestFlightApp = value.bool ?? value.int64.map { $0 != 0 }
            default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !unknown.isEmpty { metadata.unknownKeys = .object(unknown) }
        return metadata
    }

    private func readOSVersion(
        _ value: JSONElement,
        into metadata: inout MetricKitMetadata,
        keyPath: String,
        findings: inout MetricKitFindings
    ) {
        if value.kind == .object {
            let platform = value["platform"]?.string
            let number = value["number"]?.string
            let build = value["buildNumber"]?.string
            metadata.osName = platform.flatMap { $0.isEmpty ? nil : $0 }
            metadata.osVersionNumber = number.flatMap { $0.isEmpty ? nil : $0 }
            metadata.osBuild = build.flatMap { $0.isEmpty ? nil : $0 }
            var text = [metadata.osName, metadata.osVersionNumber].compactMap { $0 }.joined(separator: " ")
            if let build = metadata.osBuild { text += text.isEmpty ? "(\(build))" : " (\(build))" }
            metadata.osVersion = text.isEmpty ? nil : text
            return
        }
        guard let written = value.string else {
            findings.add(.warning, .metricKitWrongType, "osVersion is not an object", at: value, keyPath: keyPath)
            return
        }
        findings.add(
            .note,
            .metricKitCodableVariant,
            "osVersion is text, as jsonRepresentation() writes it, not an OSVersion object: read as such",
            at: value,
            keyPath: keyPath
        )
        metadata.osVersion = written
        let parsed = OSVersion(parsing: written)
        metadata.osName = parsed.name.isEmpty ? nil : parsed.name
        metadata.osVersionNumber = parsed.version.isEmpty ? nil : parsed.version
        metadata.osBuild = parsed.build.isEmpty ? nil : parsed.build
    }

    /// Reads `timeRange`, a `DateInterval` (`start` and `duration`), into the payload's begin and end, written as
    /// ISO 8601 in UTC to the second.
    ///
    /// `Date`'s default encoding is seconds since 2001-01-01; an ISO 8601 `start` (an encoder set to `.iso8601`)
    /// and an `end` in place of `duration` are read as variants.
    func readTimeRange(
        _ object: JSONElement,
        into payload: inout MetricKitPayload,
        keyPath: String,
        findings: inout MetricKitFindings
    ) {
        guard object.kind == .object else {
            findings.add(.warning, .metricKitWrongType, "timeRange is not an object", at: object, keyPath: keyPath)
            return
        }
        func date(_ key: String) -> AppleTimestamp? {
            guard let value = object[key] else { return nil }
            let path = MetricKitReader.join(keyPath, key)
            if let seconds = value.double {
                guard let stamp = Self.timestamp(secondsSince1970: seconds + Self.referenceDateOffset) else {
                    findings.add(.warning, .metricKitWrongType, "\(key) is not a date", at: value, keyPath: path)
                    return nil
                }
                return stamp
            }
            if let text = value.string, let stamp = AppleTimestamp(text) {
                findings.add(
                    .note,
                    .metricKitCodableVariant,
                    "\(key) is ISO 8601 text, not seconds since 2001 as Date's default encoding writes: read as such",
                    at: value,
                    keyPath: path
                )
                return stamp
            }
            findings.add(.warning, .metricKitWrongType, "\(key) is not a date", at: value, keyPath: path)
            return nil
        }
        let begin = date("start")
        var end: AppleTimestamp?
        if let duration = object["duration"] {
            if let seconds = duration.double, seconds.isFinite, seconds >= 0, let begin {
                end = Self.timestamp(secondsSince1970: begin.secondsSince1970 + seconds)
            } else if duration.double == nil || begin != nil {
                findings.add(
                    .warning,
                    .metricKitWrongType,
                    "duration is not a number of seconds",
                    at: duration,
                    keyPath: MetricKitReader.join(keyPath, "duration")
                )
            }
        } else if object["end"] != nil {
            end = date("end")
            if end != nil {
                findings.add(
                    .note,
                    .metricKitCodableVariant,
                    "timeRange has an end, not the duration DateInterval encodes: read as such",
                    at: object,
                    keyPath: keyPath
                )
            }
        }
        payload.begin = begin
        payload.end = end
        payload.timeStampBegin = begin?.iso8601
        payload.timeStampEnd = end?.iso8601
    }

    /// The UTC timestamp of `seconds` since 1970, to the second; nil when not finite or beyond ±3,000 years.
    static func timestamp(secondsSince1970 seconds: Double) -> AppleTimestamp? {
        guard seconds.isFinite, abs(seconds) < 95_000_000_000 else { return nil }
        let whole = Int64(saturating: seconds.rounded(.down))
        return AppleTimestamp(CivilDate.isoDateTime(secondsSince1970: whole) + "Z")
    }
}
