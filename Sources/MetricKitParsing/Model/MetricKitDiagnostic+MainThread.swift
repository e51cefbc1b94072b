import APMInspectCore
import CrashReportParsing

extension MetricKitDiagnostic {
    /// The blamed thread of a sampled tree as a crash-model thread: the heaviest path of the attributed stack (the
    /// hung main thread), the executing frame first, so analyses written for crash reports can read it.
    ///
    /// App frames are those of the app's executable, inferred as the binary that dyld's `start` called (MetricKit
    /// does not name the process). Nil without a tree or frames.
    package var blamedThread: CrashReport.Thread? {
        guard let tree = callTree else { return nil }
        let attributed = tree.stacks.first { $0.threadAttributed == true }
        let path = attributed.map { tree.heaviestPath(ofStack: $0.index) } ?? tree.heaviestPath
        guard !path.isEmpty else { return nil }
        var thread = CrashReport.Thread(index: attributed?.index ?? 0)
        for id in path where tree.frames.indices.contains(id) {
            let node = tree.frames[id]
            var frame = CrashReport.Frame(index: thread.frames.count, image: node.binaryName, address: node.address)
            frame.imageOffset = node.imageOffset
            // App Store Connect's logs come symbolicated: the classifier reads the names.
            frame.symbol = node.symbolName
            frame.file = node.fileName
            frame.line = node.lineNumber.map { Int(clamping: $0) }
            thread.frames.append(frame)
        }
        var probe = CrashReport(sourceFormat: .fragment)
        probe.threads = [thread]
        if let app = MetricKitReader.mainExecutable(probe) {
            for index in thread.frames.indices { thread.frames[index].isAppFrame = thread.frames[index].image == app }
        }
        return thread
    }
}

extension MetricKitReport {
    /// The report with every hang's ``MetricKitDiagnostic/analysis`` set by `classify`, given the hang's
    /// ``MetricKitDiagnostic/blamedThread``.
    package func analyzingHangs(with classify: (CrashReport.Thread) -> MetricKitHangAnalysis?) -> MetricKitReport {
        var report = self
        for p in report.payloads.indices {
            for d in report.payloads[p].diagnostics.indices where report.payloads[p].diagnostics[d].kind == .hang {
                guard let thread = report.payloads[p].diagnostics[d].blamedThread else { continue }
                report.payloads[p].diagnostics[d].analysis = classify(thread)
            }
        }
        return report
    }
}
