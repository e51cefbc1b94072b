import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import Symbolication

extension MetricKitCallTree {
    /// The tree with the frames that have no symbol named from the user's debug information (`--dsym`,
    /// `--symbols`), and the symbolicator's findings located at `keyPath`.
    ///
    /// The frames are handed to the crash symbolicator as one thread of a crash report whose images are the tree's
    /// binaries at their load addresses, so lookups go by binary UUID exactly as for a crash. Every frame but the
    /// first is taken as a return address (asked one byte back): in a sampled tree only the roots are executing,
    /// and a root that is not first is then looked up a byte early, which only matters at a function's first
    /// instruction. An inlined call gives the tree frame its innermost function.
    package func symbolicated(with symbolicator: ReportSymbolicator, keyPath: String) -> (
        tree: MetricKitCallTree, diagnostics: [Diagnostic]
    ) {
        var thread = CrashReport.Thread(index: 0)
        var ids: [Int] = []
        for node in frames where node.symbolName == nil || symbolicator.force {
            guard let address = node.address else { continue }
            var frame = CrashReport.Frame(index: thread.frames.count, image: node.binaryName, address: address)
            frame.imageOffset = node.imageOffset
            thread.frames.append(frame)
            ids.append(node.id)
        }
        guard !thread.frames.isEmpty else { return (self, []) }
        var report = CrashReport(sourceFormat: .fragment)
        report.binaryImages = MetricKitReader.binaryImages(self)
        report.threads = [thread]
        let outcome = symbolicator.symbolicate(report)
        var tree = self
        var named = Set<Int>()
        let written = outcome.report.threads.first?.frames ?? []
        for (position, origin) in (outcome.threadOrigins.first ?? []).enumerated() {
            guard written.indices.contains(position), ids.indices.contains(origin), !named.contains(origin),
                let symbol = written[position].symbol
            else { continue }
            named.insert(origin)
            let id = ids[origin]
            guard tree.frames.indices.contains(id) else { continue }
            tree.frames[id].symbolName = symbol
            tree.frames[id].fileName = written[position].file
            tree.frames[id].lineNumber = written[position].line.map { Int64($0) }
        }
        let location = SourceLocation(keyPath: keyPath.isEmpty ? nil : keyPath)
        let diagnostics = outcome.diagnostics.map { Diagnostic($0.severity, $0.code, $0.message, at: location) }
        return (tree, diagnostics)
    }
}
