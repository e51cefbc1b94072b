import APMInspectCore

extension CrashTextTranslator {
    /// The Apple text of a KSCrash report, with what reading it found; nil when `bytes` are not a KSCrash report
    /// (the caller then reads them as an `.ips`).
    ///
    /// - Throws: ``CrashParseError`` when the bytes are a KSCrash report that cannot be read.
    package func translation(ofKSCrash bytes: [UInt8]) throws(CrashParseError) -> (
        text: String, diagnostics: [Diagnostic]
    )? {
        guard ContentSniffer.mentionsKSCrashKeys(bytes) else { return nil }
        let reader = KSCrashReader()
        guard let document = try? JSONDocument(bytes: bytes, options: reader.json) else { return nil }
        let root =
            document.isFragmentList ? document.root.elements.first { KSCrashReader.recognises($0) } : document.root
        guard let root, KSCrashReader.recognises(root) else { return nil }
        let result = try reader.parse(document)
        var report = result.report
        if let signal = report.exception?.signal, report.exception?.type == nil {
            // A signal without a Mach exception (a SIGTERM, an OOM kill) is written as PLCrashReporter writes it,
            // `Exception Type:  SIGKILL`, which the text parser reads back as the signal alone.
            report.exception?.type = signal
            report.exception?.signal = nil
        }
        return (translate(report), result.diagnostics)
    }
}
