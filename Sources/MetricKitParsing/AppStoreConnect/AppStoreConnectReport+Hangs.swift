import CrashReportParsing

extension AppStoreConnectReport {
    /// The report with every hang log's ``MetricKitDiagnostic/analysis`` set by `classify`, as
    /// ``MetricKitReport/analyzingHangs(with:)`` does for payloads.
    package func analyzingHangs(with classify: (CrashReport.Thread) -> MetricKitHangAnalysis?) -> AppStoreConnectReport
    {
        var report = self
        for p in report.products.indices {
            for l in report.products[p].logs.indices where report.products[p].logs[l].diagnostic.kind == .hang {
                guard let thread = report.products[p].logs[l].diagnostic.blamedThread else { continue }
                report.products[p].logs[l].diagnostic.analysis = classify(thread)
            }
        }
        return report
    }
}
