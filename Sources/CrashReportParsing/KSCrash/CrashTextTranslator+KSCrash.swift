import APMInspectCore

extension CrashTextTranslator {
    /// The Apple text of a KSCrash report, with what reading it found; nil when `bytes` are not a KSCrash report
    /// (the caller then reads them as an `.ips`).
    ///
    /// - Parameters:
    ///   - bytes: the report's bytes.
    ///   - preparing: applied to the model before it is written (the caller demangles the names KSCrash wrote as
    ///     the linker spelt them: the demangler lives with symbolication, above this module).
    /// - Returns: the text and the reader's findings; nil when the bytes are not a KSCrash report.
    /// - Throws: ``CrashParseError`` when the bytes are a KSCrash report that cannot be read.
    package func translation(
        ofKSCrash bytes: [UInt8],
        preparing: (CrashReport) -> CrashReport = { $0 }
    ) throws(CrashParseError) -> (
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
        return (translate(preparing(report)), result.diagnostics)
    }
}
