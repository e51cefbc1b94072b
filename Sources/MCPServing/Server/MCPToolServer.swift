import Dispatch
import Foundation
import Logging
import MCP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `apm-inspect mcp`: the tools of ``ToolKind`` served with the Model Context Protocol over standard input and
/// output (docs/mcp.md).
///
/// Tool calls run one at a time on a queue of their own: each command already uses every core, and one result at a
/// time keeps memory to one ``ToolRunner/outputLimit``. The cooperative threads the SDK runs on never block on a
/// command.
package struct MCPToolServer: Sendable {
    package let runner: ToolRunner
    package let version: String
    private let queue = DispatchQueue(label: "apm-inspect.mcp.tools")

    package init(runner: ToolRunner, version: String) {
        self.runner = runner
        self.version = version
    }

    /// What the client shows the model about the server as a whole.
    static let instructions = """
        Reads iOS and macOS diagnostic files (crash reports, JetsamEvents, watchdog terminations, MetricKit, \
        PowerLog, HTTP captures, sysdiagnose archives) and returns the JSON of apm-inspect's commands. Paths must \
        lie in the folders the server allows; relative paths are taken from the folder it was started in.
        """

    /// `{"tools": [...]}` as `tools/list` answers it, for `--list-tools` and the documentation.
    package static func toolListJSON(symbolSources: Bool = false) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(
            ListTools.Result(tools: ToolKind.allCases.map { $0.tool(symbolSources: symbolSources) })
        )
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Serves on standard input and output until the input ends and every request read has been answered.
    ///
    /// Standard output is the protocol's: it is moved to a descriptor of its own and descriptor 1 is pointed at
    /// standard error, so that nothing else written by the process (a stray print, a library's log) can break a
    /// message.
    package func serveStandardStreams() async {
        let protocolOutput = dup(STDOUT_FILENO)
        guard protocolOutput >= 0 else { return }
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        await serve(input: STDIN_FILENO, output: protocolOutput)
        close(protocolOutput)
    }

    /// Serves on `input` and `output` until the input ends and every request read has been answered; a line longer
    /// than `maxLineBytes` is refused.
    package func serve(input: Int32, output: Int32, maxLineBytes: Int = LineTransport.maxLineBytes) async {
        var logger = Logger(label: "apm-inspect.mcp") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        let server = Server(
            name: "apm-inspect",
            version: version,
            instructions: Self.instructions,
            capabilities: Server.Capabilities(tools: Server.Capabilities.Tools(listChanged: false))
        )
        let symbolSources = runner.hasSymbolSources
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: ToolKind.allCases.map { $0.tool(symbolSources: symbolSources) })
        }
        await server.withMethodHandler(CallTool.self) { [self] parameters in
            guard let tool = ToolKind(rawValue: parameters.name) else {
                // An unknown tool is a protocol error in the MCP specification, not a tool error.
                let known = ToolKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw MCPError.invalidParams("Unknown tool: \(parameters.name) (the tools are \(known))")
            }
            return await call(tool, arguments: parameters.arguments)
        }
        let transport = LineTransport(input: input, output: output, maxLineBytes: maxLineBytes, logger: logger)
        do {
            try await server.start(transport: transport)
        } catch {
            logger.error("apm-inspect mcp: cannot start: \(error)")
            return
        }
        await server.waitUntilCompleted()
        await server.stop()
    }

    /// The result of a call, run on the tools' queue.
    package func call(_ tool: ToolKind, arguments: [String: Value]?) async -> CallTool.Result {
        let runner = self.runner
        return await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(
                    returning: Self.result(of: { () throws(ToolFailure) in
                        try runner.call(tool, arguments: arguments)
                    })
                )
            }
        }
    }

    /// A run's output as a tool result: the JSON first, then what the command says on standard error; an error
    /// when the command would exit 1 or the call was refused.
    static func result(of run: () throws(ToolFailure) -> ToolRunner.Result) -> CallTool.Result {
        do {
            let result = try run()
            var content = [text(result.output)]
            if !result.errors.isEmpty { content.append(text(result.errors.joined(separator: "\n"))) }
            return CallTool.Result(content: content, isError: result.failed)
        } catch {
            return CallTool.Result(content: [text(error.json)], isError: true)
        }
    }

    private static func text(_ text: String) -> Tool.Content {
        .text(text: text, annotations: nil, _meta: nil)
    }
}
