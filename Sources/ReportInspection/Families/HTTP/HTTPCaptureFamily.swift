import APMInspectCore
import HTTPCaptureParsing

/// HTTP captures: HAR (plain, `.zhar`, `.har.gz`), Charles sessions and pcap/pcapng.
public struct HTTPCaptureFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "HTTP capture" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> {
        [.httpArchive: "HTTP archive", .charlesSession: "Charles session", .packetCapture: "Packet capture"]
    }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard let kind = input.httpKind else { return nil }
        return Self.inspect(bytes: input.bytes, kind: kind, path: input.path, summaryOnly: inspector.httpSummaryOnly)
    }

    /// Reads a capture; `kind` is what the sniffer said, when it was asked.
    ///
    /// With `summaryOnly` (text output) the capture holds the summary and only the slowest transactions
    /// (`HTTPCaptureReader.readSummary(_:limits:)`), so a million-entry HAR is summarised in bounded memory
    /// besides the file; JSON output needs every transaction.
    package static func inspect(
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
            return .failed(path, kind: kind ?? HTTPCaptureReader.recognise(bytes) ?? .unknown, error)
        }
    }

    /// ``inspectStreaming(bytes:kind:path:options:spool:)`` for a regular file holding a HAR, read a window at a
    /// time (`HTTPCaptureReader.readStream(path:spool:)`), so the file is never held whole; nil when it is not one
    /// that read takes, for the caller to read the file and call the other.
    package static func inspectStreaming(
        file: RawPath,
        path: String,
        options: HTTPCaptureOptions = HTTPCaptureOptions(),
        spool: HTTPTransactionSpool? = nil
    ) -> (Inspection, HTTPCaptureStream)? {
        // Whatever fails here is read again whole, which says it as it always did.
        guard let stream = try? HTTPCaptureReader(options: options).readStream(path: file, spool: spool) else {
            return nil
        }
        return (inspection(of: stream, path: path), stream)
    }

    /// The inspection of a streamed capture: its summary, kind and diagnostics, the transactions left to the stream.
    private static func inspection(of stream: HTTPCaptureStream, path: String) -> Inspection {
        Inspection(
            file: path,
            kind: stream.capture.fileKind,
            diagnostics: stream.diagnostics,
            report: .http(stream.capture),
            failure: nil
        )
    }

    /// ``inspect(bytes:kind:path:options:summaryOnly:)`` for JSON output written one transaction at a time: the
    /// inspection's capture holds no transactions, the stream hands them over (nil when the capture could not be
    /// read), so a large HAR is written without holding all its transactions.
    ///
    /// With a `spool`, a HAR's transactions are encoded into it as they are read
    /// (`HTTPCaptureReader.readStream(_:spool:)`).
    package static func inspectStreaming(
        bytes: [UInt8],
        kind: FileKind?,
        path: String,
        options: HTTPCaptureOptions = HTTPCaptureOptions(),
        spool: HTTPTransactionSpool? = nil
    ) -> (Inspection, HTTPCaptureStream?) {
        do {
            let stream = try HTTPCaptureReader(options: options).readStream(bytes, spool: spool)
            return (inspection(of: stream, path: path), stream)
        } catch {
            return (.failed(path, kind: kind ?? HTTPCaptureReader.recognise(bytes) ?? .unknown, error), nil)
        }
    }
}
