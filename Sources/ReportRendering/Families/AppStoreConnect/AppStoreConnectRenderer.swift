import APMInspectCore
import MetricKitParsing

/// The human summary of an App Store Connect response: each signature's insights and logs (shown as MetricKit
/// diagnostics: metadata, heaviest path, flame view), or a build's signatures by weight.
package enum AppStoreConnectRenderer {
    /// Signatures listed before "… more".
    package static let signatureLimit = 50
    /// Logs shown per signature before "… more": a response can hold thousands, all in the JSON output.
    package static let logLimit = 20

    package static func render(
        _ report: AppStoreConnectReport,
        file: String,
        options: CrashViewOptions = .standard
    ) -> StyledText {
        var out = StyledText("App Store Connect  \(TerminalText.escaped(file))\n")
        var response = report.response.rawValue
        if let version = report.version { response += " (version \(version))" }
        var fields: [(String, String)] = [("Response", response)]
        let counts = MetricKitDiagnostic.Kind.allCases.compactMap { kind in
            report.kindCounts[kind.rawValue].map { "\(kind.rawValue) \($0)" }
        }
        switch report.response {
        case .diagnosticLogs:
            fields.append(("Signatures", String(report.products.count)))
            fields.append(("Logs", String(report.products.reduce(0) { $0 + $1.logs.count })))
        case .diagnosticSignatures:
            fields.append(("Signatures", String(report.signatures.count)))
        }
        if !counts.isEmpty { fields.append(("Kinds", counts.joined(separator: ", "))) }
        out += InspectionRenderer.keyValues(fields)
        for product in report.products {
            out +=
                "\nSignature \(TerminalText.escaped(product.signatureId ?? "(no signatureId)"))  \(product.keyPath)\n"
            var insights: [(String, String)] = []
            for insight in product.insights {
                let text = [insight.category.map { $0 + ":" }, insight.text].compactMap { $0 }.joined(separator: " ")
                insights.append(("Insight", text))
                if let url = insight.url { insights.append(("", url)) }
            }
            if !insights.isEmpty { out += InspectionRenderer.keyValues(insights) }
            for log in product.logs.prefix(logLimit) {
                out += "\n" + MetricKitRenderer.render(log.diagnostic, file: file, options: options)
                var more: [(String, String)] = []
                if let event = log.event { more.append(("Event", event)) }
                if let detail = log.eventDetail { more.append(("Event detail", detail)) }
                if let trees = log.moreCallTrees { more.append(("More trees", "\(trees.count) not shown")) }
                if !more.isEmpty { out += InspectionRenderer.keyValues(more) }
            }
            if product.logs.count > logLimit {
                out += "\n  … \(product.logs.count - logLimit) more logs (all of them in --format json)\n"
            }
        }
        if !report.signatures.isEmpty { out += "\n" + render(signatures: report.signatures) }
        return out
    }

    private static func render(signatures: [AppStoreConnectReport.Signature]) -> String {
        var table = TextTable(
            headers: ["WEIGHT", "TYPE", "SIGNATURE", "ID"],
            alignments: [.right, .left, .left, .left]
        )
        let sorted = signatures.sorted { ($0.weight ?? -1) > ($1.weight ?? -1) }
        for signature in sorted.prefix(signatureLimit) {
            let weight = signature.weight.map { ($0 * 100).wholeOrDecimalText + " %" } ?? ""
            let id = signature.id.map { $0.count > 16 ? String($0.prefix(16)) + "…" : $0 } ?? ""
            table.append([weight, signature.diagnosticType ?? "", signature.signature ?? "", id])
        }
        var out = table.render(indent: "  ")
        if sorted.count > signatureLimit { out += "  … \(sorted.count - signatureLimit) more signatures\n" }
        return out
    }
}
