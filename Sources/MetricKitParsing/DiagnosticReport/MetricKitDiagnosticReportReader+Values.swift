import APMInspectCore

extension MetricKitDiagnosticReportReader {
    /// A `Measurement` as synthesized `Codable` writes it (`{"value": 3.2, "unit": {"symbol": "s", …}}`), read into
    /// the text form the payload reader keeps (`3.2 s`) so both shapes normalise alike; a string or a bare number is
    /// read as a variant.
    func measurement(
        _ value: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings
    ) -> MetricKitMeasurement? {
        switch value.kind {
        case .object:
            guard let number = value["value"], number.kind == .number, let figure = number.rawText else { break }
            let unit = value["unit"]
            guard let symbol = unit?["symbol"]?.string ?? unit?.string else {
                findings.add(
                    .warning,
                    .metricKitWrongType,
                    "the measurement has no unit symbol: its value is kept without a unit",
                    at: value,
                    keyPath: keyPath
                )
                return MetricKitMeasurement(raw: figure)
            }
            return MetricKitMeasurement(raw: figure + " " + symbol)
        case .string:
            guard let text = value.string else { break }
            findings.add(
                .note,
                .metricKitCodableVariant,
                "the measurement is text, as jsonRepresentation() writes it, not a Codable Measurement: read as such",
                at: value,
                keyPath: keyPath
            )
            return MetricKitMeasurement(raw: text)
        case .number:
            guard let text = value.rawText else { break }
            findings.add(
                .note,
                .metricKitCodableVariant,
                "the measurement is a bare number, without its unit: read as such",
                at: value,
                keyPath: keyPath
            )
            return MetricKitMeasurement(raw: text)
        default: break
        }
        findings.add(
            .warning,
            .metricKitWrongType,
            "the measurement is neither a Measurement object, text nor a number",
            at: value,
            keyPath: keyPath
        )
        return nil
    }

    /// A 64-bit integer (`exceptionCode` is a `UInt64` in Swift: one above `Int64.max` keeps its bits, as the
    /// crash model reads the code back as unsigned), or numeric text.
    func integer(_ value: JSONElement, keyPath: String, findings: inout MetricKitFindings) -> Int64? {
        if let number = value.int64 { return number }
        if let number = value.uint64 { return Int64(bitPattern: number) }
        if let text = value.string, let number = Int64(text.trimmingASCIIWhitespace()) { return number }
        findings.add(.warning, .metricKitWrongType, "the value is not an integer", at: value, keyPath: keyPath)
        return nil
    }

    /// Text: a string, or a struct wrapping one (`TerminationReason` and `TerminationCategory` are structs whose
    /// encoding the documentation does not show; a `RawRepresentable` one is a plain string).
    func text(_ value: JSONElement, keyPath: String, findings: inout MetricKitFindings) -> String? {
        if let text = value.string { return text }
        if value.kind == .object {
            for key in ["rawValue", "description", "value", "reason"] {
                guard let text = value[key]?.string else { continue }
                findings.add(
                    .note,
                    .metricKitCodableVariant,
                    "the text is an object: its \(key) was read",
                    at: value,
                    keyPath: keyPath
                )
                return text
            }
        }
        findings.add(.warning, .metricKitWrongType, "the value is not text", at: value, keyPath: keyPath)
        return nil
    }
}
