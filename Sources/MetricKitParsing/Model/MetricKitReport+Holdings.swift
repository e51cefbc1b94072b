import CrashReportParsing

extension MetricKitReport {
    /// What the file holds in words (`2 hang diagnostics, 1 metric payload`), for messages that must say why a
    /// command meant for one kind of diagnostic has nothing to do with this file.
    package var holdingsDescription: String {
        var parts: [String] = []
        for kind in MetricKitDiagnostic.Kind.allCases {
            guard let count = diagnosticCounts[kind.rawValue], count > 0 else { continue }
            parts.append("\(count) \(kind.nounPhrase(count: count))")
        }
        if metricPayloads > 0 {
            parts.append(metricPayloads == 1 ? "1 metric payload" : "\(metricPayloads) metric payloads")
        }
        return parts.isEmpty ? "no diagnostic" : parts.joined(separator: ", ")
    }

    /// The crash diagnostics with their crash report model, in file order.
    package var crashReports: [(keyPath: String, report: CrashReport)] {
        diagnostics.compactMap { diagnostic in
            guard diagnostic.kind == .crash, let report = diagnostic.crashReport else { return nil }
            return (diagnostic.keyPath, report)
        }
    }
}

extension MetricKitDiagnostic.Kind {
    /// `hang diagnostic`, `CPU exception diagnostics` …: the kind counted in a sentence.
    package func nounPhrase(count: Int) -> String {
        let noun: String
        switch self {
        case .crash: noun = "crash diagnostic"
        case .hang: noun = "hang diagnostic"
        case .cpuException: noun = "CPU exception diagnostic"
        case .diskWriteException: noun = "disk-write exception diagnostic"
        case .appLaunch: noun = "app-launch diagnostic"
        case .memoryException: noun = "memory exception diagnostic"
        case .callStackTree: noun = "call-stack tree"
        }
        return count == 1 ? noun : noun + "s"
    }
}
