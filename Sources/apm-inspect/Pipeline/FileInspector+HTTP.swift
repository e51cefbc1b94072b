import APMInspectCore
import HTTPCaptureParsing

extension FileInspector {
    /// Reads an HTTP capture (HAR, Charles session, pcap/pcapng); `kind` is what the sniffer said, when it was asked.
    ///
    /// With `summaryOnly` (text output) the capture holds the summary and only the slowest transactions
    /// (``HTTPCaptureReader/readSummary(_:limits:)``), so a million-entry HAR is summarised in bounded memory
    /// besides the file; JSON output needs every transaction.
    func inspectHTTP(
        bytes: [UInt8],
        kind: FileKind?,
        path: String,
        options: HTTPCaptureOptions = HTTPCaptureOptions(),
        summaryOnly: Bool = false
    ) -> Inspection {
        do {
            let reader = HTTPCaptureReader(options: options)
            let result = try summaryOnly ? reader.readSummary(bytes) : reader.read(bytes)
            return Inspection(
                file: path,
                kind: result.capture.fileKind,
                diagnostics: result.diagnostics,
                report: .http(result.capture),
                failure: nil
            )
        } catch {
            return Inspection(
                file: path,
                kind: kind ?? HTTPCaptureReader.recognise(bytes) ?? .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
    }
}
