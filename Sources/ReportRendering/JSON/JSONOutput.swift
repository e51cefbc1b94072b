import APMInspectCore
import ReportInspection

/// Encodes output documents: pretty for `json`, one line per document for `ndjson`; keys sorted for stable diffs.
package enum JSONOutput {
    package static func encode(_ value: some Encodable, pretty: Bool) throws -> String {
        try SortedJSONEncoder(pretty: pretty).encode(value)
    }

    /// Bytes of one document encoded in full before any of it is written: a document that fails to encode
    /// within this much is replaced as a whole (an error envelope); a larger one is written as it is encoded, in
    /// fixed memory, and an error past this point cuts it short (docs/json-output.md, "When a report cannot be
    /// written").
    package static let holdLimit = 8 << 20

    /// Writes `value` and a newline to `sink` as it is encoded (a large capture is hundreds of megabytes
    /// of JSON, never held whole).
    ///
    /// - Throws: what encoding threw; when part of the document was already written, it is ended by a newline.
    package static func print(_ value: some Encodable, pretty: Bool, to sink: OutputSink) throws {
        do {
            try SortedJSONEncoder(pretty: pretty).write(value, suffix: "\n", holdingUpTo: holdLimit) {
                sink.out(bytes: $0)
            }
        } catch let error as SortedJSONEncoder.Interrupted {
            sink.out("\n")
            throw error
        }
    }

    /// How writing one envelope went.
    package enum EnvelopeOutcome {
        case written
        /// Replaced by its error envelope.
        case replaced
        /// Failed after part of it was written: the output is cut short there.
        case cut
    }

    /// Writes `prefix` and one envelope, encoded on its own so that a report the encoder refuses costs only itself.
    ///
    /// In its place comes an error envelope naming its file (`error.code` `output-encoding`, `report`
    /// null) and the error on standard error; returns true then (exit status 1). `depth` indents it as an
    /// element of a pretty array. An envelope larger than ``holdLimit`` is written as it is encoded: an error past
    /// that point ends its line where it stopped (the error on standard error, true returned).
    package static func printEnvelope(
        _ inspection: Inspection,
        pretty: Bool,
        depth: Int = 0,
        prefix: String = "",
        suffix: StaticString = "\n",
        to sink: OutputSink
    ) -> Bool {
        writeEnvelope(inspection, pretty: pretty, depth: depth, prefix: prefix, suffix: suffix, to: sink) != .written
    }

    private static func writeEnvelope(
        _ inspection: Inspection,
        pretty: Bool,
        depth: Int,
        prefix: String,
        suffix: StaticString,
        to sink: OutputSink
    ) -> EnvelopeOutcome {
        let encoder = SortedJSONEncoder(pretty: pretty)
        var started = false
        do {
            try encoder.write(inspection, suffix: suffix, depth: depth, holdingUpTo: holdLimit) { bytes in
                if !started {
                    started = true
                    sink.out(prefix)
                }
                sink.out(bytes: bytes)
            }
            return .written
        } catch let error as SortedJSONEncoder.Interrupted {
            let message =
                "the report could not be written as JSON: \(error.underlying); its output is cut short after "
                + "\(error.bytesHandedOut) bytes"
            sink.error(ErrorLine.render(path: inspection.file, location: nil, message: message))
            sink.out("\n")
            return .cut
        } catch {
            var end = ""
            suffix.withUTF8Buffer { end = String(decoding: $0, as: UTF8.self) }
            sink.out(prefix + errorEnvelope(inspection, error: error, pretty: pretty, depth: depth, to: sink) + end)
            return .replaced
        }
    }

    /// One envelope of `scan`'s output: an element of its JSON array (`arrayElement`) or an NDJSON line, written
    /// inside `exclusive`, which runs its body alone on the output and says whether an element came before.
    ///
    /// An envelope of up to ``holdLimit`` bytes is encoded before taking the output, so workers encode in parallel;
    /// a larger one is written while it is encoded, holding the output meanwhile, never held whole. Returns true
    /// when the envelope failed (replaced by its error envelope, or cut short as ``printEnvelope``).
    package static func emitEnvelope(
        _ inspection: Inspection,
        arrayElement: Bool,
        exclusive: ((_ wroteBefore: Bool) -> Void) -> Void,
        to sink: OutputSink
    ) -> Bool {
        let suffix: StaticString = arrayElement ? "" : "\n"
        var failed = false
        do {
            // The bytes go to the output as the encoder left them: no `String`, no joining with the line break.
            try SortedJSONEncoder().withEncoded(inspection, suffix: suffix, upTo: holdLimit) { bytes in
                exclusive { before in
                    let prefix = arrayElement && before ? ",\n" : ""
                    if let bytes {
                        if !prefix.isEmpty { sink.out(prefix) }
                        sink.out(bytes: bytes)
                    } else {
                        failed =
                            writeEnvelope(inspection, pretty: false, depth: 0, prefix: prefix, suffix: suffix, to: sink)
                            != .written
                    }
                }
            }
        } catch {
            let replacement = errorEnvelope(inspection, error: error, pretty: false, depth: 0, to: sink)
            let end = arrayElement ? "" : "\n"
            exclusive { before in sink.out((arrayElement && before ? ",\n" : "") + replacement + end) }
            return true
        }
        return failed
    }

    /// The envelope that stands for a report the encoder refused, after saying so on standard error.
    private static func errorEnvelope(
        _ inspection: Inspection,
        error: any Error,
        pretty: Bool,
        depth: Int,
        to sink: OutputSink
    ) -> String {
        let message = "the report could not be written as JSON: \(error)"
        sink.error(ErrorLine.render(path: inspection.file, location: nil, message: message))
        let encoder = SortedJSONEncoder(pretty: pretty)
        var replacement = inspection
        replacement.report = nil
        replacement.failure = Inspection.Failure(code: "output-encoding", message: message, location: nil)
        // Without the diagnostics too if they were the trouble.
        return (try? encoder.encode(replacement, depth: depth))
            ?? (try? encoder.encode(Inspection(copyingIdentityOf: replacement), depth: depth)) ?? "null"
    }

    /// Prints envelopes as `--format ndjson` (one line each) or `--format json` (one pretty document when
    /// `single`, else an array), each encoded on its own (``printEnvelope(_:pretty:depth:prefix:suffix:to:)``);
    /// true when one failed.
    package static func printEnvelopes(
        _ inspections: [Inspection],
        format: OutputFormat,
        single: Bool,
        to sink: OutputSink
    ) -> Bool {
        var failed = false
        if format == .ndjson {
            for inspection in inspections where printEnvelope(inspection, pretty: false, to: sink) { failed = true }
            return failed
        }
        if single, inspections.count == 1, let only = inspections.first {
            return printEnvelope(only, pretty: true, to: sink)
        }
        // The layout of the whole array encoded at once, one element at a time.
        guard !inspections.isEmpty else {
            sink.out("[\n\n]\n")
            return false
        }
        sink.out("[\n")
        for (k, inspection) in inspections.enumerated() {
            let prefix = k > 0 ? ",\n  " : "  "
            switch writeEnvelope(inspection, pretty: true, depth: 1, prefix: prefix, suffix: "", to: sink) {
            case .written: break
            case .replaced: failed = true
            // The array is broken past repair: the document ends where the envelope stopped.
            case .cut: return true
            }
        }
        sink.out("\n]\n")
        return failed
    }
}

extension Inspection {
    /// The file, kind and failure of `other`, nothing else: the last-resort error envelope.
    fileprivate init(copyingIdentityOf other: Inspection) {
        self.init(file: other.file, kind: other.kind, diagnostics: [], report: nil, failure: other.failure)
    }
}
