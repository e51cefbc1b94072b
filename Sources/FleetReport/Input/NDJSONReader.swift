import APMInspectCore
import Foundation

/// Streams the envelopes of an NDJSON file, one line at a time, in memory bounded by the longest line allowed.
public struct NDJSONReader: Sendable {
    /// What one line gave.
    public enum Line: Sendable {
        case event(FleetEvent)
        /// A line that is not an envelope (too long, not JSON, not an envelope's shape): skipped, with why.
        case rejected(Diagnostic)
    }

    /// Longer lines are skipped (not held): `scan` writes a report of any size on one line, and a line is decoded
    /// whole.
    public var maxLineBytes: Int
    /// How much is read from the file at a time.
    public var chunkBytes: Int

    public init(maxLineBytes: Int = 64 << 20, chunkBytes: Int = 1 << 20) {
        self.maxLineBytes = max(1, maxLineBytes)
        self.chunkBytes = max(1, chunkBytes)
    }

    /// Reads the file at `path`, handing each non-blank line's outcome to `body` in order; `body` returns false to
    /// stop.
    ///
    /// - Throws: `InputError` (`unreadable`) when the file cannot be opened or read.
    public func read(path: String, _ body: (Line) -> Bool) throws(InputError) {
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

    private func finish(
        _ pending: inout [UInt8],
        skipped: Bool,
        line: Int,
        offset: Int,
        _ body: (Line) -> Bool
    ) -> Bool {
        defer { pending = [] }
        let location = SourceLocation(byteOffset: offset, line: line)
        if skipped {
            return body(.rejected(Diagnostic(.error, "the line is longer than \(maxLineBytes) bytes", at: location)))
        }
        let blank = pending.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        if blank { return true }
        do {
            return body(.event(try FleetEnvelope.decode(line: pending)))
        } catch {
            return body(.rejected(Diagnostic(.error, "not an envelope: \(Self.reason(error))", at: location)))
        }
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
