import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import ReportInspection
import WatchdogAnalysis

/// The human summary of a MetricKit file: its payloads, each diagnostic (crashes as crash reports, hangs and
/// exceptions by their heaviest sampled path) and the metric figures.
package enum MetricKitRenderer {
    /// Frames of a heaviest path or figures of a metric payload shown before "… more".
    package static let pathLimit = 16
    package static let entryLimit = 80

    /// `options` apply to the crash diagnostics, each shown as a crash report.
    package static func render(
        _ report: MetricKitReport,
        file: String,
        options: CrashViewOptions = .standard
    ) -> StyledText {
        var out = StyledText("MetricKit  \(file)\n")
        let diagnosticPayloads = report.payloads.count - report.metricPayloads
        var fields: [(String, String)] = [
            ("Payloads", "\(diagnosticPayloads) diagnostic, \(report.metricPayloads) metric")
        ]
        let counts = MetricKitDiagnostic.Kind.allCases.compactMap { kind in
            report.diagnosticCounts[kind.rawValue].map { "\(kind.rawValue) \($0)" }
        }
        if !counts.isEmpty { fields.append(("Diagnostics", counts.joined(separator: ", "))) }
        out += InspectionRenderer.keyValues(fields)
        for payload in report.payloads {
            out += "\n" + heading(payload)
            for diagnostic in payload.diagnostics { out += "\n" + render(diagnostic, file: file, options: options) }
            if let metrics = payload.metrics { out += render(metrics) }
        }
        return out
    }

    private static func heading(_ payload: MetricKitPayload) -> String {
        var line = payload.kind == .metric ? "Metric payload" : "Diagnostic payload"
        if !payload.keyPath.isEmpty { line += " \(payload.keyPath)" }
        let range = [payload.timeStampBegin, payload.timeStampEnd].compactMap { $0 }
        if !range.isEmpty { line += "  " + TerminalText.escaped(range.joined(separator: " – ")) }
        return line + "\n"
    }

    /// One diagnostic: a crash as a crash report, anything else by its metadata, measurements and heaviest path
    /// (App Store Connect's logs are shown this way too).
    package static func render(
        _ diagnostic: MetricKitDiagnostic,
        file: String,
        options: CrashViewOptions
    ) -> StyledText {
        if let crash = diagnostic.crashReport {
            var out = CrashRenderer.styled(crash, file: "\(file) \(diagnostic.keyPath)", options: options)
            var fields: [(String, String)] = []
            if let objc = diagnostic.objectiveCException {
                if let name = objc.name ?? objc.className { fields.append(("ObjC exception", name)) }
                if let message = objc.message { fields.append(("", message)) }
            }
            // The category the OS counts the termination under in its termination metrics (iOS 27).
            if let category = diagnostic.terminationCategory { fields.append(("Termination category", category)) }
            if !fields.isEmpty { out += InspectionRenderer.keyValues(fields) }
            return out
        }
        var out = "\(title(diagnostic.kind))  \(diagnostic.keyPath)\n"
        var fields: [(String, String)] = []
        let metadata = diagnostic.metadata
        var app = [metadata.bundleIdentifier, metadata.appVersion].compactMap { $0 }.filter { !$0.isEmpty }
        if let build = metadata.appBuildVersion, !build.isEmpty { app.append("(\(build))") }
        if !app.isEmpty { fields.append(("App", app.joined(separator: " "))) }
        if let device = metadata.deviceType { fields.append(("Device", device)) }
        if let os = metadata.osVersion { fields.append(("OS", os)) }
        let measurements: [(String, MetricKitMeasurement?)] = [
            ("Hang", diagnostic.hangDuration), ("CPU time", diagnostic.totalCPUTime),
            ("Sampled", diagnostic.totalSampledTime), ("Writes", diagnostic.writesCaused),
            ("Launch", diagnostic.launchDuration),
        ]
        for (name, measurement) in measurements {
            if let measurement { fields.append((name, measurement.raw)) }
        }
        let analysis =
            diagnostic.analysis
            ?? (diagnostic.kind == .hang ? diagnostic.blamedThread.map(MetricKitFamily.hangAnalysis) : nil)
        if let analysis {
            fields.append(("Main thread", "\(analysis.summary) (\(analysis.confidence) confidence)"))
            for reason in analysis.reasons.prefix(4) { fields.append(("", reason)) }
        }
        out += InspectionRenderer.keyValues(fields)
        if let tree = diagnostic.callTree { out += render(tree) }
        return StyledText(out)
    }

    private static func render(_ tree: MetricKitCallTree) -> String {
        var out =
            "  " + counted(tree.stacks.count, "call stack") + ", " + counted(tree.frames.count, "frame") + ", "
            + counted(tree.totalSamples, "sample")
        out += tree.perThread == false ? " (aggregated over the process)\n" : "\n"
        // In a tree per thread, the blamed thread's path (the hung main thread), not the busiest thread's.
        let stacks = flameStacks(tree)
        let path = stacks.flatMap { $0.min().map { tree.heaviestPath(ofStack: $0) } } ?? tree.heaviestPath
        guard !path.isEmpty else { return out }
        let whose = stacks == nil ? "" : " of the attributed thread"
        out += "  Heaviest path\(whose) (the executing frame first, then its callers)\n"
        var table = TextTable(
            headers: ["#", "SAMPLES", "FRAME", "ADDRESS"],
            alignments: [.right, .right, .left, .right]
        )
        for (depth, id) in path.prefix(pathLimit).enumerated() where tree.frames.indices.contains(id) {
            let frame = tree.frames[id]
            table.append([
                String(depth), String(frame.totalSamples), tree.label(of: id),
                frame.address?.description ?? "",
            ])
        }
        out += table.render(indent: "  ")
        if path.count > pathLimit { out += "  … \(path.count - pathLimit) more frames\n" }
        out += render(flame: tree.flameTree(stacks: stacks), attributedOnly: stacks != nil)
        return out
    }

    /// `1 frame`, `2 frames`.
    package static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    /// The stacks the tree view folds: in a tree per thread, the thread the diagnostic blames when it names one
    /// (the hung main thread), since merging threads would add up unrelated work; otherwise every stack.
    private static func flameStacks(_ tree: MetricKitCallTree) -> Set<Int>? {
        guard tree.perThread != false else { return nil }
        let attributed = Set(tree.stacks.filter { $0.threadAttributed == true }.map(\.index))
        return attributed.isEmpty ? nil : attributed
    }

    /// The flame-graph view in text: callers at the left, callees indented below them, heaviest first.
    package static func render(flame: MetricKitFlameTree, attributedOnly: Bool) -> String {
        guard flame.totalSamples > 0, !flame.lines.isEmpty else { return "" }
        let share = (flame.minimumShare * 100).wholeOrDecimalText
        let whose = attributedOnly ? "the attributed thread's " : ""
        var out = "\n  Call tree (\(whose)callers first, callees indented; \(counted(flame.totalSamples, "sample")))\n"
        var table = TextTable(
            headers: ["TOTAL", "%", "SELF", "FRAME"],
            alignments: [.right, .right, .right, .left]
        )
        for line in flame.lines {
            let indent = String(repeating: "  ", count: max(0, min(line.depth, 64)))
            switch line.kind {
            case .frame:
                table.append([
                    String(line.totalSamples), Formatting.oneDecimal(flame.percent(line.totalSamples)),
                    String(line.selfSamples), indent + line.label,
                ])
            case .belowShare:
                table.append([
                    String(line.totalSamples), Formatting.oneDecimal(flame.percent(line.totalSamples)), "",
                    indent + "… \(counted(line.hiddenFrames, "more frame")) below \(share) %",
                ])
            case .tooDeep:
                table.append([
                    String(line.totalSamples), Formatting.oneDecimal(flame.percent(line.totalSamples)), "",
                    indent + "… \(counted(line.hiddenFrames, "more frame")) deeper",
                ])
            }
        }
        out += table.render(indent: "  ")
        if flame.framesPastLineCap > 0 {
            out += "  … \(counted(flame.framesPastLineCap, "more frame")) past the line limit (see --format folded)\n"
        }
        if !flame.isComplete { out += "  (the tree is larger than the frame budget: only part of it was folded)\n" }
        return out
    }

    private static func render(_ metrics: MetricKitMetrics) -> String {
        var out = ""
        var fields: [(String, String)] = []
        if let version = metrics.appVersion { fields.append(("App version", version)) }
        if let metadata = metrics.metadata {
            if let build = metadata.appBuildVersion { fields.append(("Build", build)) }
            if let device = metadata.deviceType { fields.append(("Device", device)) }
            if let os = metadata.osVersion { fields.append(("OS", os)) }
        }
        out += InspectionRenderer.keyValues(fields)
        var table = TextTable(headers: ["CATEGORY", "FIGURE", "VALUE"], alignments: [.left, .left, .left])
        for entry in metrics.entries.prefix(entryLimit) {
            table.append([entry.category, entry.name, value(entry)])
        }
        out += "\n" + table.render(indent: "  ")
        if metrics.entries.count > entryLimit {
            out += "  … \(metrics.entries.count - entryLimit) more figures (see --format json)\n"
        }
        return out
    }

    private static func value(_ entry: MetricKitMetrics.Entry) -> String {
        if let measurement = entry.measurement { return measurement.raw }
        if let number = entry.number { return Formatting.median(number) }
        if let text = entry.text { return text }
        if let histogram = entry.histogram {
            var text = "histogram: \(histogram.buckets.count) buckets, \(histogram.total) samples"
            let unit = histogram.unit.map { " " + $0 } ?? ""
            if let p50 = histogram.p50 { text += ", p50 ≈ \(Formatting.oneDecimal(p50))\(unit)" }
            if let p90 = histogram.p90 { text += ", p90 ≈ \(Formatting.oneDecimal(p90))\(unit)" }
            return text
        }
        if let average = entry.average {
            var text = "average \(average.value?.raw ?? "?")"
            if let deviation = average.standardDeviation { text += " ± \(Formatting.oneDecimal(deviation))" }
            if let count = average.sampleCount { text += " over \(count) samples" }
            return text
        }
        return ""
    }

    package static func title(_ kind: MetricKitDiagnostic.Kind) -> String {
        switch kind {
        case .crash: "Crash"
        case .hang: "Hang"
        case .cpuException: "CPU exception"
        case .diskWriteException: "Disk-write exception"
        case .appLaunch: "Slow launch"
        case .memoryException: "Memory exception"
        case .callStackTree: "Call-stack tree"
        }
    }
}
