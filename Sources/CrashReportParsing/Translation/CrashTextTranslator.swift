import APMInspectCore

/// Writes a crash report as the classic text report that Apple's own translation (OSAnalytics `OSALegacyXform`)
/// produces from a bug_type 309 `.ips`.
///
/// iOS reports get the iOS layout (`Report Version: 104`), macOS reports the macOS one (`Report Version: 12`,
/// external modifications, VM region summary). docs/crash-translation.md lists what differs from Apple's output.
package struct CrashTextTranslator: Sendable {
    /// The layout to write; nil chooses it from the report's platform.
    package var layout: AppleTextLayout?

    package init(layout: AppleTextLayout? = nil) {
        self.layout = layout
    }

    /// Parses a bug_type 309 `.ips` file and translates it.
    ///
    /// - Throws: ``CrashParseError`` when the file is not a crash report with a JSON body.
    package func translate(_ bytes: [UInt8]) throws(CrashParseError) -> String {
        try translation(of: bytes).text
    }

    /// Parses a bug_type 309 `.ips` file and translates it, with what reading it found (a truncated body, repaired
    /// JSON), so a caller can say that the text comes from damaged input.
    ///
    /// - Throws: ``CrashParseError`` when the file is not a crash report with a JSON body.
    package func translation(of bytes: [UInt8]) throws(CrashParseError) -> (text: String, diagnostics: [Diagnostic]) {
        let container = IPSContainer(bytes: bytes)
        guard container.bodyKind == .json else {
            throw CrashParseError(
                .notACrashReport,
                "not a JSON (bug_type 309) crash report: the body is \(container.bodyKind.rawValue)",
                at: SourceLocation(
                    byteOffset: container.bodyOrigin.byteOffset,
                    line: container.bodyOrigin.line,
                    column: 1
                )
            )
        }
        let parser = CrashReportParser()
        let result = try parser.parse(container)
        var extras = AppleTextExtras()
        // The body the parser read: in a list of fragments, the pieces it joined (``CrashJSONBody``).
        if let document = try? container.parseJSONBody(options: parser.json),
            let body = CrashJSONBody.locate(in: document)?.body
        {
            extras = AppleTextExtras(body: body)
        }
        return (translate(result.report, extras: extras), result.diagnostics)
    }

    /// Translates a report already read; `extras` carries the JSON details the model does not keep.
    package func translate(_ report: CrashReport, extras: AppleTextExtras = AppleTextExtras()) -> String {
        var writer = AppleTextWriter(report: report, extras: extras)
        switch layout ?? AppleTextLayout.forReport(report, isEmbedded: extras.isEmbedded) {
        case .iOS: writer.writeIOS()
        case .macOS: writer.writeMacOS()
        }
        return writer.output
    }
}
