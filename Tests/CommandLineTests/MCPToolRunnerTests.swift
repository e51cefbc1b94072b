import APMInspectCore
import Foundation
import MCP
import ReportRendering
import Testing

@testable import MCPServing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tools in process: the root check, the arguments and the size limit, without a client.
@Suite("mcp: tool runner")
struct MCPToolRunnerTests {
    static let repository = BuiltCommandTests.root.path

    static func runner(limit: Int = ToolRunner.outputLimit, roots: [String] = [repository]) throws -> ToolRunner {
        ToolRunner(roots: try AllowedRoots(folders: roots), outputLimit: limit, jobs: 2)
    }

    static func failure(_ body: () throws(ToolFailure) -> ToolRunner.Result) -> ToolFailure? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a result past the limit is refused with the command to run instead, and the next call still works")
    func outputLimit() throws {
        let small = try Self.runner(limit: 4096)
        let paths: [String: Value] = ["paths": [.string(Self.repository + "/" + BuiltCommandTests.crashText)]]
        let failure = Self.failure { () throws(ToolFailure) in try small.call(.inspect, arguments: paths) }
        #expect(failure?.code == .mcpOutputTooLarge)
        #expect(failure?.message.contains("apm-inspect inspect --format json") == true)
        let result = try Self.runner().call(.inspect, arguments: paths)
        #expect(result.output.utf8.count > 4096)
        #expect(!result.failed)
    }

    @Test("real paths decide: .., links to files and folders outside, and a path inside")
    func roots() throws {
        let (base, root, outside) = try MCPCommandTests.makeRoots()
        defer { try? FileManager.default.removeItem(at: base) }
        let roots = try AllowedRoots(folders: [root.path])
        #expect(roots.check(root.path + "/../outside/secret.ips")?.code == .mcpPathOutsideRoots)
        #expect(roots.check(root.path + "/link.ips")?.code == .mcpPathOutsideRoots)
        #expect(roots.check(root.path + "/reports")?.code == .mcpPathOutsideRoots)
        #expect(roots.check(root.path + "/reports/jetsam.ips") == nil)
        #expect(roots.check(root.path + "/reports/missing.ips")?.code == .mcpPathUnresolvable)
        // Missing and outside: refused as outside, so a client cannot probe which files exist elsewhere.
        #expect(roots.check(root.path + "/../no-such-folder/passwd")?.code == .mcpPathOutsideRoots)
        #expect(roots.check(root.path + "/../outside/missing.ips")?.code == .mcpPathOutsideRoots)
        #expect(roots.check(root.path + "/../../../../../../no-such/etc/passwd")?.code == .mcpPathOutsideRoots)
        #expect(mkfifo(root.path + "/pipe.ips", 0o600) == 0)
        #expect(roots.check(root.path + "/pipe.ips")?.code == .mcpPathNotAFile)
        // A sibling whose name starts with the root's is not inside it.
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent("root-other"),
            withIntermediateDirectories: true
        )
        #expect(roots.check(base.path + "/root-other")?.code == .mcpPathOutsideRoots)
        try FileManager.default.removeItem(at: root.appendingPathComponent("reports/elsewhere"))
        #expect(roots.check(root.path + "/reports") == nil)
        #expect(try AllowedRoots(folders: [outside.path, root.path]).check(root.path + "/link.ips") == nil)
    }

    @Test("arguments outside the schema are refused before anything is read")
    func arguments() throws {
        let runner = try Self.runner()
        let jetsam: Value = .array([.string(BuiltCommandTests.jetsam)])
        let cases: [(ToolKind, [String: Value]?)] = [
            (.inspect, nil),
            (.inspect, ["paths": .array([])]),
            (.inspect, ["paths": .string(BuiltCommandTests.jetsam)]),
            (.inspect, ["paths": .array([.int(1)])]),
            (.inspect, ["paths": jetsam, "jobs": 4]),
            (.inspect, ["paths": .array([.string("Corpus\u{0}/x")])]),
            (.symbolicate, ["paths": jetsam]),
            (.memoryLimits, ["paths": jetsam, "schemaVersion": 3]),
            (.memoryLimits, ["paths": jetsam, "schemaVersion": 1.5]),
            (.http, ["paths": jetsam, "showSecrets": "yes"]),
            (.report, ["paths": jetsam, "since": "last week"]),
        ]
        for (tool, arguments) in cases {
            let failure = Self.failure { () throws(ToolFailure) in try runner.call(tool, arguments: arguments) }
            #expect(failure?.code == .mcpInvalidArguments, "\(tool) \(String(describing: arguments))")
        }
        let two = try runner.call(.memoryLimits, arguments: ["paths": jetsam, "schemaVersion": 2.0])
        #expect(two.output.hasPrefix("{"))
    }

    @Test("symbol sources the server was started with name frames without `dsym`, and the schema says so")
    func serverSymbolSources() throws {
        let cache = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let fixtures = Self.repository + "/Tests/SymbolicationTests/Fixtures"
        let report: Value = .array([
            .string(Self.repository + "/Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash")
        ])
        let symbols = SymbolSources(options: [fixtures], cache: cache.path, environment: [:])
        let served = ToolRunner(roots: try AllowedRoots(folders: [Self.repository]), jobs: 2, symbols: symbols)
        #expect(served.hasSymbolSources)
        let plain = try Self.runner()
        #expect(!plain.hasSymbolSources)
        // Without sources `dsym` is required; with them a call without it is named from the sources.
        let refused = Self.failure { () throws(ToolFailure) in
            try plain.call(.symbolicate, arguments: ["paths": report])
        }
        #expect(refused?.code == .mcpInvalidArguments)
        let fromSources = try served.call(.symbolicate, arguments: ["paths": report])
        let fromDsym = try plain.call(.symbolicate, arguments: ["paths": report, "dsym": .array([.string(fixtures)])])
        #expect(!fromSources.failed)
        #expect(fromSources.output == fromDsym.output)
        #expect(fromSources.output.contains("/Demo/src/main.c"))
        // inspect names frames from the sources too, with no argument from the client.
        let inspected = try served.call(.inspect, arguments: ["paths": report])
        let unnamed = try plain.call(.inspect, arguments: ["paths": report])
        #expect(inspected.output != unnamed.output)
        #expect(inspected.output.contains("/Demo/src/main.c"))
        func required(_ json: String) throws -> [String]? {
            let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let tools = list?["tools"] as? [[String: Any]] ?? []
            let symbolicate = tools.first { $0["name"] as? String == "symbolicate" }
            return (symbolicate?["inputSchema"] as? [String: Any])?["required"] as? [String]
        }
        #expect(try required(MCPToolServer.toolListJSON(symbolSources: false)) == ["paths", "dsym"])
        #expect(try required(MCPToolServer.toolListJSON(symbolSources: true)) == ["paths"])
    }

    @Test("a refusal is a tool error whose text is {\"error\": {code, message, path}}")
    func refusalResult() throws {
        let result = MCPToolServer.result { () throws(ToolFailure) in
            throw ToolFailure(.mcpPathOutsideRoots, "/etc/passwd is outside", path: "/etc/passwd")
        }
        #expect(result.isError == true)
        guard case .text(let text, _, _) = result.content.first else {
            Issue.record("no text content")
            return
        }
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: String]]
        #expect(
            object?["error"] == [
                "code": "mcp.path-outside-roots", "message": "/etc/passwd is outside", "path": "/etc/passwd",
            ]
        )
    }
}

/// The transport in process, on files: the line limit, and every request answered before the end of the input.
///
/// Files, not pipes: other tests fork workers without exec (the demangler's sandbox), and a child that inherits the
/// write end of a pipe keeps it from ever reaching its end.
@Suite("mcp: line transport")
struct MCPLineTransportTests {
    @Test("a line past the limit is answered with Invalid Request and id null; the next line is read")
    func longLine() async throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long =
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""# + String(repeating: "x", count: 300) + #""}}"#
        let script = [
            long,
            #"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"inspect","arguments":{"paths":["/"]}}}"#,
        ]
        let inputPath = folder.appendingPathComponent("in.jsonl").path
        let outputPath = folder.appendingPathComponent("out.jsonl").path
        try (script.joined(separator: "\n") + "\n").write(toFile: inputPath, atomically: true, encoding: .utf8)
        let input = open(inputPath, O_RDONLY | O_CLOEXEC)
        let output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        #expect(input >= 0 && output >= 0)
        let server = MCPToolServer(runner: try MCPToolRunnerTests.runner(), version: "test")
        await server.serve(input: input, output: output, maxLineBytes: 200)
        close(input)
        close(output)
        let answers = try String(contentsOfFile: outputPath, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(answers.count == 3)
        let unnamed = answers.filter { $0["id"] is NSNull }
        #expect(unnamed.count == 1)
        #expect((unnamed.first?["error"] as? [String: Any])?["code"] as? Int == -32600)
        #expect(answers.contains { $0["id"] as? Int == 2 && $0["result"] != nil })
        // The last request was answered although the input had ended before it ran.
        let refused = try #require(answers.first { $0["id"] as? Int == 3 }?["result"] as? [String: Any])
        #expect(refused["isError"] as? Bool == true)
    }
}
