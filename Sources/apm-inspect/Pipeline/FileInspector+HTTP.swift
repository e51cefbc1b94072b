import APMInspectCore
import HTTPCaptureParsing

extension FileInspector {
    /// Reads an HTTP capture (HAR, Charles session, pcap/pcapng); `kind` is what the sniffer said, when it was asked.
    func inspectHTTP(bytes: [UInt8], kind: FileKind?, path: String, options: HTTPCaptureOptions = HTTPCaptureOptions())
        -> Inspection
    {
        do {
            let result = try HTTPCaptureReader(options: options).read(bytes)
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
