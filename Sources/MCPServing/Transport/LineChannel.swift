import Foundation
import MCP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Newline-delimited JSON-RPC on two descriptors, with the bounds and answers the SDK's stdio transport lacks.
///
/// The SDK's `StdioTransport` makes standard input and output non-blocking (which changes them for the client's
/// side of the pipe too, and for a terminal), polls every 10 ms, keeps an unbounded line in memory, and answers a
/// line that is not JSON with a made-up id. Here a thread blocks on the input; a line longer than the limit is
/// dropped with an `Invalid Request` answer; a line that is not JSON gets a `Parse error` with `id: null`, as
/// JSON-RPC 2.0 says; and at the end of the input the stream waits until every request read has its answer, so
/// `printf '…' | apm-inspect mcp` prints every response before it ends.
final class LineChannel: @unchecked Sendable {
    let input: Int32
    let output: Int32
    let maxLineBytes: Int
    private let condition = NSCondition()
    /// Requests read and not yet answered, by id (a count, in case a client reuses one).
    private var unanswered: [ID: Int] = [:]
    private var outputFailed = false

    init(input: Int32, output: Int32, maxLineBytes: Int) {
        self.input = input
        self.output = output
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// Reads lines until the end of the input, handing each JSON message to `deliver`; then waits for the answers
    /// and calls `finish`.
    func readLines(deliver: (Data) -> Void, finish: () -> Void) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var line: [UInt8] = []
        var discarding = false
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    // A descriptor left non-blocking by whoever started us: wait for it rather than spin.
                    var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                    _ = poll(&waiting, 1, -1)
                    continue
                }
                break reading
            }
            if count == 0 { break reading }
            var rest = buffer[0..<count]
            while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
                append(rest[rest.startIndex..<newline], to: &line, discarding: &discarding)
                if discarding {
                    answerError(code: -32600, "Invalid Request: a message line is longer than \(maxLineBytes) bytes")
                } else {
                    take(line, deliver: deliver)
                }
                line = []
                discarding = false
                rest = rest[(newline + 1)...]
                if failed { break reading }
            }
            append(rest, to: &line, discarding: &discarding)
        }
        if !discarding && !line.isEmpty { take(line, deliver: deliver) }
        condition.lock()
        while !unanswered.isEmpty && !outputFailed { condition.wait() }
        condition.unlock()
        finish()
    }

    private func append(_ part: ArraySlice<UInt8>, to line: inout [UInt8], discarding: inout Bool) {
        guard !discarding else { return }
        if part.count > maxLineBytes - line.count {
            discarding = true
            line = []
        } else {
            line.append(contentsOf: part)
        }
    }

    /// Hands a line on when it is JSON, counting its requests; answers it otherwise.
    private func take(_ line: [UInt8], deliver: (Data) -> Void) {
        var end = line.endIndex
        while end > line.startIndex, [0x20, 0x09, 0x0D].contains(line[end - 1]) { end -= 1 }
        guard line[line.startIndex..<end].contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { return }
        let data = Data(line[line.startIndex..<end])
        guard let message = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            answerError(code: -32700, "Parse error: the line is not JSON")
            return
        }
        guard message is [String: Any] || message is [Any] else {
            answerError(code: -32600, "Invalid Request: a message is a JSON object (or an array of them)")
            return
        }
        condition.lock()
        for probe in MessageProbe.messages(in: data) {
            if let id = probe.id, probe.method != nil {
                unanswered[id, default: 0] += 1
            } else if let id = probe.params?.requestId {
                // A cancelled request gets no answer (the SDK drops it): stop waiting for one.
                forget(id)
            }
        }
        condition.unlock()
        deliver(data)
    }

    /// True once the output could not be written: the client is gone.
    var failed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return outputFailed
    }

    /// Writes `data` and a newline, whole, then counts the answers it holds.
    func send(_ data: Data) throws {
        var message = data
        message.append(UInt8(ascii: "\n"))
        condition.lock()
        defer { condition.unlock() }
        guard !outputFailed else { throw MCPError.connectionClosed }
        do {
            try writeAll(message)
        } catch {
            outputFailed = true
            condition.broadcast()
            throw error
        }
        for probe in MessageProbe.messages(in: data) where probe.method == nil {
            if let id = probe.id { forget(id) }
        }
        condition.broadcast()
    }

    private func forget(_ id: ID) {
        guard let count = unanswered[id] else { return }
        unanswered[id] = count > 1 ? count - 1 : nil
    }

    /// An error answer that names no request (`id: null`).
    private func answerError(code: Int, _ message: String) {
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let text = #"{"jsonrpc":"2.0","id":null,"error":{"code":\#(code),"message":"\#(escaped)"}}"#
        try? send(Data(text.utf8))
    }

    private func writeAll(_ data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = write(output, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var waiting = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&waiting, 1, -1)
                } else {
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
            }
        }
    }
}
