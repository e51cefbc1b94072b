import Foundation
import Logging
import MCP

/// The SDK's transport over ``LineChannel``: the server reads the channel's messages and answers through it.
package actor LineTransport: Transport {
    package nonisolated let logger: Logger
    private let channel: LineChannel
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var connected = false

    /// Lines longer than this (4 MiB) are refused: a request names paths and a few options.
    package static let maxLineBytes = 4 << 20

    package init(input: Int32, output: Int32, maxLineBytes: Int = LineTransport.maxLineBytes, logger: Logger) {
        self.logger = logger
        channel = LineChannel(input: input, output: output, maxLineBytes: maxLineBytes)
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    package func connect() async throws {
        guard !connected else { return }
        connected = true
        let channel = self.channel
        let continuation = self.continuation
        let reader = Thread {
            channel.readLines(deliver: { continuation.yield($0) }, finish: { continuation.finish() })
        }
        reader.name = "apm-inspect.mcp.input"
        reader.start()
    }

    package func disconnect() async {
        continuation.finish()
    }

    package func send(_ data: Data) async throws {
        do {
            try channel.send(data)
        } catch {
            // The client is gone: nothing more can be answered, so the server ends.
            continuation.finish()
            throw error
        }
    }

    package nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        stream
    }
}
