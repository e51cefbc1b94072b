import APMInspectCore
import Dispatch
import Foundation

/// Streams the envelopes of an NDJSON file, one line at a time, in memory bounded by the longest line allowed.
package struct NDJSONReader: Sendable {
    /// What one line gave.
    package enum Line: Sendable {
        case event(FleetEvent)
        /// An archive's own envelope: its findings, as the fleet report lists them.
        case findings([FleetFinding])
        /// A line that is not an envelope (too long, not JSON, not an envelope's shape): skipped, with why.
        case rejected(Diagnostic)
    }

    /// Longer lines are skipped (not held): `scan` writes a report of any size on one line, and a line is decoded
    /// whole.
    package var maxLineBytes: Int
    /// How much is read from the file at a time.
    package var chunkBytes: Int
    /// `report --grouping`: the rules that name the crash groups of the envelopes read.
    package var grouping: GroupingRules?

    package init(maxLineBytes: Int = 64 << 20, chunkBytes: Int = 1 << 20) {
        self.maxLineBytes = max(1, maxLineBytes)
        self.chunkBytes = max(1, chunkBytes)
    }

    /// One line as read, before decoding.
    private struct RawLine {
        var bytes: [UInt8]
        /// The line was longer than ``maxLineBytes``; its bytes were not kept.
        var skipped: Bool
        var location: SourceLocation
    }

    /// Reads the file at `path`, handing each non-blank line's outcome to `body` in order; `body` returns false to
    /// stop.
    ///
    /// Lines are decoded on `jobs` threads, a batch at a time (at most `batchBytes` of lines, plus one line), and
    /// handed over in file order: decoding is most of the work, and an envelope does not depend on its neighbours.
    ///
    /// - Throws: `InputError` (`unreadable`) when the file cannot be opened or read.
    package func read(path: String, jobs: Int = 1, batchBytes: Int = 16 << 20, _ body: (Line) -> Bool)
        throws(InputError)
    {
        var batch: [RawLine] = []
        var held = 0
        var stopped = false
        func flush() -> Bool {
            let lines = Self.decode(batch, maxLineBytes: maxLineBytes, jobs: jobs, grouping: grouping)
            batch = []
            held = 0
            for line in lines where !body(line) { return false }
            return true
        }
        try readLines(path: path) { raw in
            batch.append(raw)
            held += raw.bytes.count
            guard batch.count >= 4096 || held >= batchBytes else { return true }
            stopped = !flush()
            return !stopped
        }
        if !stopped, !batch.isEmpty { _ = flush() }
    }

    private func readLines(path: String, _ body: (RawLine) -> Bool) throws(InputError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(.unreadable, "the file cannot be opened")
        }
        defer { try? handle.close() }
        var pending: [UInt8] = []
        var skipping = false
        var lineNumber = 1
        var offset = 0
        var lineStart = 0
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkBytes) ?? Data()
            } catch {
                throw InputError(.unreadable, "the file cannot be read: \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            let bytes = [UInt8](chunk)
            var start = 0
            while start < bytes.count {
                guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                    if !skipping { append(bytes[start...], to: &pending, skipping: &skipping) }
                    break
                }
                if !skipping { append(bytes[start..<newline], to: &pending, skipping: &skipping) }
                let more = finish(&pending, skipped: skipping, line: lineNumber, offset: lineStart, body)
                offset += newline + 1 - start
                start = newline + 1
                lineStart = offset
                lineNumber += 1
                skipping = false
                if !more { return }
            }
            offset += bytes.count - min(start, bytes.count)
        }
        if skipping || !pending.isEmpty {
            _ = finish(&pending, skipped: skipping, line: lineNumber, offset: lineStart, body)
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>, to pending: inout [UInt8], skipping: inout Bool) {
        if pending.count + bytes.count > maxLineBytes {
            pending = []
            skipping = true
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    /// Hands over a finished line, unless it is blank.
    private func finish(
        _ pending: inout [UInt8],
        skipped: Bool,
        line: Int,
        offset: Int,
        _ body: (RawLine) -> Bool
    ) -> Bool {
        defer { pending = [] }
        if !skipped, pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return true }
        return body(RawLine(bytes: pending, skipped: skipped, location: SourceLocation(byteOffset: offset, line: line)))
    }

    /// Decodes a batch on up to `jobs` threads; the outcomes are in the batch's order.
    private static func decode(_ batch: [RawLine], maxLineBytes: Int, jobs: Int, grouping: GroupingRules?) -> [Line] {
        let slots = DecodedSlots(count: batch.count)
        let next = NextIndex()
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, batch.count))) { _ in
            while let index = next.take(below: batch.count) {
                let raw = batch[index]
                let line: Line
                if raw.skipped {
                    line = .rejected(
                        Diagnostic(
                            .error,
                            .fleetLineTooLong,
                            "the line is longer than \(maxLineBytes) bytes",
                            at: raw.location
                        )
                    )
                } else {
                    do {
                        let envelope = try FleetEnvelope.envelope(line: raw.bytes, grouping: grouping)
                        line = envelope.archiveFindings.map(Line.findings) ?? .event(envelope.event)
                    } catch {
                        line = .rejected(
                            Diagnostic(
                                .error,
                                .fleetNotAnEnvelope,
                                "not an envelope: \(reason(error))",
                                at: raw.location
                            )
                        )
                    }
                }
                slots.store(line, at: index)
            }
        }
        return slots.values
    }

    /// The decoding error in a few words: the key path and what was wrong, not Foundation's whole description.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the line is not JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            return "no key \(path(context.codingPath + [key]))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "the line is not JSON" : "bad value at \(path(context.codingPath))"
        @unknown default:
            return "the line is not an envelope"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }
}

/// The outcome of each line of a batch, each written by one worker.
private final class DecodedSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [NDJSONReader.Line?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ line: NDJSONReader.Line, at index: Int) {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = line
    }

    /// Every outcome, in order (a slot left empty cannot happen: every index is taken once).
    var values: [NDJSONReader.Line] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}

/// Hands out the indices of a batch to workers, each once.
private final class NextIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0

    func take(below count: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}
