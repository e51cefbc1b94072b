import APMInspectCore
import BackendExport
import CrashReportParsing
import FleetReport
import Foundation
import ReportInspection

/// Turns inspections into Sentry events, Sentry envelopes or OTLP documents, and prints or writes them.
///
/// ``render(_:)`` is pure and runs on worker threads; ``write(_:)`` and ``finish()`` serialise the output with a
/// lock, so `scan`'s workers can call them directly.
package final class BackendEventPrinter: @unchecked Sendable {
    /// What one inspection gives: lines for standard output, or envelopes.
    package struct Rendered: Sendable {
        package var file: String
        package var lines: [String] = []
        package var envelopes: [(id: String, text: String)] = []
        /// Why the file gave no event (its kind has none), for `inspect` to say.
        package var note: String?
        /// An event that could not be encoded.
        package var failure: String?
        /// Events older than Sentry's retention window (id, the report's time): Sentry will show when it received
        /// them, and their own time is in the `original_timestamp` tag.
        package var beyondRetention: [(id: String, time: String)] = []
        /// Crash events held back for linking (``linksCrashes``): the text of each (a Sentry event, or an OTLP
        /// document of its one record), with the facts that link it.
        var held: [HeldCrash] = []
    }

    /// A crash event waiting for the end of the run.
    struct HeldCrash: Sendable {
        var crash: FleetEvent.Crash
        var text: String
        var id: EventIdentity
        var beyondRetention: String?
    }

    package let format: BackendFormat
    /// `-o DIR`: where envelopes are written, one file each.
    package let directory: String?
    /// Where lines and the single envelope go.
    private let sink: OutputSink
    /// Writes one envelope file (text, path): nil on success, else why it failed.
    ///
    /// The executable's refuses to write over one of the command's inputs.
    private let writeFile: @Sendable (_ text: String, _ path: String) -> String?
    package let toolVersion: String
    private let sentAt: String
    /// When the run started, seconds since 1970: what Sentry's retention window is measured from.
    private let now: Int64?
    /// The vmaddr a dSYM or binary gives an image (UUID, architecture), when `--dsym` was given.
    private let imageVMAddress: (@Sendable (_ uuid: String, _ arch: String?) -> UInt64?)?
    private let lock = NSLock()
    private var heldEnvelope: String?
    private var envelopeCount = 0
    private var events = 0
    private var failures: [String] = []
    private var oldEvents = 0
    /// Set when crash events are held and exported once per crash at ``finish()`` (`scan`).
    private let crashLinks: BackendCrashLinks?
    private var spoolFailed = false
    private var duplicates = 0

    package init(
        format: BackendFormat,
        directory: String?,
        toolVersion: String,
        now: Date = Date(),
        imageVMAddress: (@Sendable (_ uuid: String, _ arch: String?) -> UInt64?)? = nil,
        sink: OutputSink,
        linkingCrashesIn spoolFolder: String? = nil,
        writeFile: @escaping @Sendable (_ text: String, _ path: String) -> String?
    ) {
        self.format = format
        crashLinks = spoolFolder.map { BackendCrashLinks(spoolPath: $0 + "/held-crash-events") }
        self.directory = directory
        self.toolVersion = toolVersion
        self.sink = sink
        self.writeFile = writeFile
        self.imageVMAddress = imageVMAddress
        let seconds = now.timeIntervalSince1970.rounded(.down)
        self.now = seconds.isFinite ? Int64(exactly: seconds) : nil
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        sentAt = formatter.string(from: now)
    }

    /// The incidents of an inspection's report (its family's views say which); the reason there are none otherwise.
    package static func incidents(
        of inspection: Inspection,
        imageVMAddress: ImageVMAddressLookup? = nil
    ) -> (incidents: [BackendIncident], note: String?) {
        guard let report = inspection.report else { return ([], nil) }
        guard let views = FamilyRegistry.views(of: report) else { return ([], "this report has no backend event") }
        let found = views.backendIncidents(of: report, imageVMAddress: imageVMAddress)
        return (found.incidents, found.note)
    }

    /// The digest the event ids follow: of the file's bytes (``ReportInspector/digestsContent``), else of the
    /// report as apm-inspect encodes it (a PowerLog database read in place has no event anyway).
    package static func contentDigest(of inspection: Inspection) -> [UInt8] {
        if let digest = inspection.contentDigest { return digest }
        let encoded = (try? SortedJSONEncoder().encode(inspection.report)) ?? inspection.file
        return SHA256Digest.hash(Array(encoded.utf8))
    }

    package func render(_ inspection: Inspection) -> Rendered {
        var rendered = Rendered(file: inspection.file)
        let (incidents, note) = Self.incidents(of: inspection, imageVMAddress: imageVMAddress)
        var metricPayloads: [MetricPayloadFigures] = []
        if format == .otel, let report = inspection.report, let views = FamilyRegistry.views(of: report) {
            metricPayloads = views.backendMetricPayloads(of: report)
        }
        rendered.note = metricPayloads.isEmpty ? note : nil
        guard !incidents.isEmpty || !metricPayloads.isEmpty else { return rendered }
        let identified = BackendEvents.identified(incidents, contentDigest: Self.contentDigest(of: inspection))
        let linked = linksCrashes ? Self.crashFacts(of: inspection, incidents: incidents) : nil
        let facts = linked ?? [FleetEvent.Crash?](repeating: nil, count: incidents.count)
        let encoder = SortedJSONEncoder()
        do {
            switch format {
            case .sentry, .sentryEnvelope:
                let writer = SentryEventWriter(toolVersion: toolVersion, now: now)
                for ((incident, id), crash) in zip(identified, facts) {
                    let line = try encoder.encode(writer.event(incident, id: id))
                    let old = writer.isBeyondRetention(incident) ? incident.timestamp?.iso8601 : nil
                    if let crash {
                        rendered.held.append(HeldCrash(crash: crash, text: line, id: id, beyondRetention: old))
                        continue
                    }
                    if let old { rendered.beyondRetention.append((id.hex, old)) }
                    if format == .sentry {
                        rendered.lines.append(line)
                    } else {
                        let envelope = SentryEnvelope(eventID: id, payload: line)
                        rendered.envelopes.append(
                            (id.hex, envelope.serialized(sentAt: sentAt, toolVersion: toolVersion))
                        )
                    }
                }
            case .otel:
                let writer = OTLPLogWriter(toolVersion: toolVersion)
                var streamed: [(incident: BackendIncident, id: EventIdentity)] = []
                for (pair, crash) in zip(identified, facts) {
                    guard let crash else {
                        streamed.append(pair)
                        continue
                    }
                    let text = try encoder.encode(writer.document([pair]))
                    rendered.held.append(HeldCrash(crash: crash, text: text, id: pair.id, beyondRetention: nil))
                }
                if !streamed.isEmpty || !metricPayloads.isEmpty {
                    rendered.lines.append(try encoder.encode(writer.document(streamed, metricPayloads: metricPayloads)))
                }
            }
        } catch {
            rendered.failure = "could not encode its events: \(error)"
        }
        return rendered
    }

    /// True when crash events are held and each crash exported once, its richest report (`scan`).
    package var linksCrashes: Bool { crashLinks != nil }

    /// Prints or writes what one inspection gave, holding its crash events back when linking; a failure is kept for
    /// ``finish()``.
    package func write(_ rendered: Rendered) {
        lock.lock()
        defer { lock.unlock() }
        var rendered = rendered
        for crash in rendered.held {
            if let crashLinks,
                crashLinks.hold(
                    crash.crash,
                    file: rendered.file,
                    text: crash.text,
                    id: crash.id,
                    beyondRetention: crash.beyondRetention
                )
            {
                continue
            }
            // The spool failed: the event is exported now, unlinked, rather than lost.
            spoolFailed = true
            append(crash.text, id: crash.id, beyondRetention: crash.beyondRetention, to: &rendered)
        }
        output(rendered)
    }

    /// Adds one event's text to what `rendered` prints or writes.
    private func append(_ text: String, id: EventIdentity, beyondRetention: String?, to rendered: inout Rendered) {
        if let beyondRetention { rendered.beyondRetention.append((id.hex, beyondRetention)) }
        switch format {
        case .sentry, .otel: rendered.lines.append(text)
        case .sentryEnvelope:
            let envelope = SentryEnvelope(eventID: id, payload: text)
            rendered.envelopes.append((id.hex, envelope.serialized(sentAt: sentAt, toolVersion: toolVersion)))
        }
    }

    /// Exports the held crash events, each crash's richest once, naming the reports it stands for.
    private func releaseHeldCrashes() {
        guard let crashLinks, !crashLinks.isEmpty else { return }
        let lost = crashLinks.release { chosen in
            var rendered = Rendered(file: "")
            var text = chosen.text
            if chosen.links.count > 0 {
                duplicates += chosen.links.count
                text = Self.linking(text, chosen.links, format: format) ?? text
            }
            append(text, id: chosen.id, beyondRetention: chosen.beyondRetention, to: &rendered)
            output(rendered)
        }
        if lost > 0 {
            failures.append(
                "apm-inspect: error: \(lost) held crash event(s) could not be read back from the temporary folder"
            )
        }
    }

    /// The event's text with the reports it stands for (the Sentry tag and context, the OTLP attributes); nil when
    /// the text is not one the writers made.
    static func linking(_ text: String, _ links: LinkedReports, format: BackendFormat) -> String? {
        var options = JSONParseOptions()
        options.lenient = false
        guard let document = try? JSONDocument(bytes: Array(text.utf8), options: options) else { return nil }
        let event = document.root.materialized
        let linked =
            format == .otel
            ? OTLPLogWriter.document(event, linking: links) : SentryEventWriter.event(event, linking: links)
        return try? SortedJSONEncoder().encode(linked)
    }

    /// Crash reports linked to a richer report of the same crash and left out.
    package var duplicatesLeftOut: Int {
        lock.lock()
        defer { lock.unlock() }
        return duplicates
    }

    /// True when a crash event could not be held and was exported unlinked.
    package var linkingFailed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return spoolFailed
    }

    /// Prints or writes lines and envelopes; the lock is held.
    private func output(_ rendered: Rendered) {
        if let failure = rendered.failure {
            failures.append(ErrorLine.render(path: rendered.file, location: nil, message: failure))
            return
        }
        events += format == .otel ? rendered.lines.count : rendered.lines.count + rendered.envelopes.count
        oldEvents += rendered.beyondRetention.count
        for line in rendered.lines { sink.out(line + "\n") }
        for (id, text) in rendered.envelopes {
            envelopeCount += 1
            if let directory {
                let path = directory + "/" + id + ".envelope"
                if let problem = writeFile(text, path) {
                    failures.append(ErrorLine.render(path: path, location: nil, message: problem))
                }
            } else if envelopeCount == 1 {
                heldEnvelope = text
            } else {
                heldEnvelope = nil
            }
        }
    }

    /// Prints the single envelope held for standard output; the errors of the run, one line each (an empty list
    /// when all went well).
    package func finish() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        releaseHeldCrashes()
        if format == .sentryEnvelope && directory == nil {
            if envelopeCount == 1, let heldEnvelope {
                sink.out(heldEnvelope)
            } else if envelopeCount > 1 {
                failures.append(
                    "apm-inspect: error: \(envelopeCount) events: an envelope holds one event and envelopes cannot be "
                        + "concatenated; give -o DIR to write one envelope file per event"
                )
            }
        }
        return failures
    }

    /// Sentry events written so far whose time is older than Sentry's retention window.
    package var beyondRetentionCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return oldEvents
    }

    /// Events printed or written so far (OTLP: documents).
    package var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
