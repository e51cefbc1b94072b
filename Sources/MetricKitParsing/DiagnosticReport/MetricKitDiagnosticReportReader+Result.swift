import APMInspectCore

extension MetricKitDiagnosticReportReader {
    /// Reads `result`, a `DiagnosticResult`: an object whose one key is the case, holding the diagnostic under
    /// `_0` (synthesized `Codable` for an unlabelled associated value) or, as a variant, directly.
    func readResult(
        _ element: JSONElement,
        keyPath: String,
        metadata: MetricKitMetadata,
        unknown: inout [JSONValue.Member],
        findings: inout MetricKitFindings,
        budget: inout MetricKitReader.Budget
    ) -> MetricKitDiagnostic? {
        guard element.kind == .object else {
            findings.add(.warning, .metricKitWrongType, "the result is not an object", at: element, keyPath: keyPath)
            unknown.append(JSONValue.Member(key: "result", value: element.materialized))
            return nil
        }
        var chosen: (kind: MetricKitDiagnostic.Kind, key: String, value: JSONElement)?
        var others: [JSONValue.Member] = []
        element.forEachMember { key, value in
            if chosen == nil, let kind = Self.resultCases[key] {
                chosen = (kind, key, value)
            } else {
                others.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        guard let chosen else {
            let names = others.map(\.key).joined(separator: ", ")
            findings.add(
                .warning,
                .metricKitUnknownResult,
                "the result is none of crash, hang, cpuException, diskWriteException, appLaunch, memoryException "
                    + "(\(names.isEmpty ? "no key" : names)): kept as written",
                at: element,
                keyPath: keyPath
            )
            unknown.append(JSONValue.Member(key: "result", value: element.materialized))
            return nil
        }
        if !others.isEmpty {
            findings.add(
                .warning,
                .metricKitWrongType,
                "the result holds more than one case: \(chosen.key) was read, the rest kept as written",
                at: element,
                keyPath: keyPath
            )
        }
        // What of the result is not read stays in the report as written, as one `result` object.
        var kept = others
        defer {
            if !kept.isEmpty { unknown.append(JSONValue.Member(key: "result", value: .object(kept))) }
        }
        func keep() { kept.append(JSONValue.Member(key: chosen.key, value: chosen.value.materialized)) }
        let casePath = MetricKitReader.join(keyPath, chosen.key)
        guard chosen.value.kind == .object else {
            findings.add(
                .warning,
                .metricKitWrongType,
                "\(chosen.key) is not an object",
                at: chosen.value,
                keyPath: casePath
            )
            keep()
            return nil
        }
        if let wrapped = chosen.value["_0"] {
            guard wrapped.kind == .object else {
                findings.add(
                    .warning,
                    .metricKitWrongType,
                    "the diagnostic is not an object",
                    at: wrapped,
                    keyPath: casePath + "._0"
                )
                keep()
                return nil
            }
            return readDiagnostic(
                wrapped,
                kind: chosen.kind,
                keyPath: casePath + "._0",
                metadata: metadata,
                findings: &findings,
                budget: &budget
            )
        }
        findings.add(
            .note,
            .metricKitCodableVariant,
            "\(chosen.key) holds the diagnostic itself, not under _0 as synthesized Codable writes an unlabelled "
                + "associated value: read as such",
            at: chosen.value,
            keyPath: casePath
        )
        return readDiagnostic(
            chosen.value,
            kind: chosen.kind,
            keyPath: casePath,
            metadata: metadata,
            findings: &findings,
            budget: &budget
        )
    }

    /// Reads one diagnostic struct (`CrashDiagnostic`, `MemoryExceptionDiagnostic` …): its tree, its figures and a
    /// crash's facts, into the fields ``MetricKitReader`` fills from `jsonRepresentation()`.
    func readDiagnostic(
        _ object: JSONElement,
        kind: MetricKitDiagnostic.Kind,
        keyPath: String,
        metadata: MetricKitMetadata,
        findings: inout MetricKitFindings,
        budget: inout MetricKitReader.Budget
    ) -> MetricKitDiagnostic {
        var diagnostic = MetricKitDiagnostic(kind: kind, keyPath: keyPath, metadata: metadata)
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            // A value that cannot be read stays in the report as written.
            func keep() { unknown.append(JSONValue.Member(key: key, value: value.materialized)) }
            switch key {
            case "callStackTree":
                guard value.kind == .object else {
                    findings.add(
                        .warning,
                        .metricKitWrongType,
                        "callStackTree is not an object",
                        at: value,
                        keyPath: path
                    )
                    return keep()
                }
                diagnostic.callTree = readTree(value, keyPath: path, findings: &findings, budget: &budget)
            case "hangDuration", "totalCPUTime", "totalSampledTime", "writesCaused", "launchDuration":
                guard let figure = measurement(value, keyPath: path, findings: &findings) else { return keep() }
                switch key {
                case "hangDuration": diagnostic.hangDuration = figure
                case "totalCPUTime": diagnostic.totalCPUTime = figure
                case "totalSampledTime": diagnostic.totalSampledTime = figure
                case "writesCaused": diagnostic.writesCaused = figure
                default: diagnostic.launchDuration = figure
                }
            case "exceptionType", "signal", "exceptionCode":
                guard let number = integer(value, keyPath: path, findings: &findings) else { return keep() }
                switch key {
                case "exceptionType": diagnostic.exceptionType = number
                case "signal": diagnostic.signal = number
                default: diagnostic.exceptionCode = number
                }
            case "terminationReason", "terminationCategory":
                guard let text = text(value, keyPath: path, findings: &findings) else { return keep() }
                if key == "terminationReason" {
                    diagnostic.terminationReason = text
                } else {
                    diagnostic.terminationCategory = text
                }
            case "virtualMemoryRegionInfo":
                guard let text = text(value, keyPath: path, findings: &findings) else { return keep() }
                diagnostic.virtualMemoryRegionInfo = text
            case "exceptionReason", "objectiveCExceptionReason":
                guard value.kind == .object else {
                    findings.add(.warning, .metricKitWrongType, "\(key) is not an object", at: value, keyPath: path)
                    return keep()
                }
                diagnostic.objectiveCException = MetricKitReader.readObjCException(value)
            default: keep()
            }
        }
        if !unknown.isEmpty { diagnostic.unknownKeys = .object(unknown) }
        if kind == .crash {
            diagnostic.crashReport = reader.crashReport(for: diagnostic, findings: &findings)
        }
        return diagnostic
    }

    /// Reads a `CallStackTree` with the payload reader's walk, under the Codable names (`callStackThreads`,
    /// `rootFrames`, `binaryInfo`); the names of `jsonRepresentation()` are read as variants.
    func readTree(
        _ object: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings,
        budget: inout MetricKitReader.Budget
    ) -> MetricKitCallTree {
        var keys = MetricKitReader.TreeKeys.codable
        if object[keys.stacks] == nil, object["callStacks"] != nil {
            keys.stacks = "callStacks"
            findings.add(
                .note,
                .metricKitCodableVariant,
                "the tree lists its stacks under callStacks (the jsonRepresentation() name), not callStackThreads: "
                    + "read as such",
                at: object,
                keyPath: keyPath
            )
        }
        if let stacks = object[keys.stacks], stacks.kind == .array,
            let first = stacks.elements.first(where: { $0.kind == .object }),
            first[keys.roots] == nil, first["callStackRootFrames"] != nil
        {
            keys.roots = "callStackRootFrames"
            findings.add(
                .note,
                .metricKitCodableVariant,
                "the stacks list their frames under callStackRootFrames (the jsonRepresentation() name), not "
                    + "rootFrames: read as such",
                at: first,
                keyPath: keyPath
            )
        }
        return reader.readTree(object, keyPath: keyPath, keys: keys, findings: &findings, budget: &budget)
    }
}
