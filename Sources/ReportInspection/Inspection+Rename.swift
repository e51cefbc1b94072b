import APMInspectCore

extension Inspection {
    /// Names the file `shown` where the inspection (and a PowerLog's sources) say `path`: for temporary copies
    /// and `/proc/self/fd` paths.
    package mutating func rename(from path: String, to shown: String) {
        file = shown
        if case .powerLog(var report) = report {
            for k in report.sources.indices where report.sources[k].path == path { report.sources[k].path = shown }
            self.report = .powerLog(report)
        }
    }
}
