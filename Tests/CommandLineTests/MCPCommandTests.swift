import Foundation
import Testing

/// `apm-inspect mcp` as a client drives it: a scripted session on standard input, the answers read back by id.
///
/// The session is written whole and standard input closed after it: the server answers every request it read
/// before it ends, so the test sees what a client that waits for each answer would.
@Suite("mcp: the server over stdio")
struct MCPCommandTests {
    /// The JSON-RPC messages of a session, one per line; `raw` lines are sent as they are.
    struct Script {
        var lines: [String] = []
        private var nextID = 1

        mutating func request(_ method: String, _ params: [String: Any] = [:]) throws -> Int {
            let id = nextID
            nextID += 1
            try send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
            return id
        }

        mutating func call(_ tool: String, _ arguments: [String: Any]) throws -> Int {
            try request("tools/call", ["name": tool, "arguments": arguments])
        }

        mutating func notify(_ method: String) throws {
            try send(["jsonrpc": "2.0", "method": method])
        }

        mutating func raw(_ line: String) { lines.append(line) }

        private mutating func send(_ message: [String: Any]) throws {
            let data = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
    }

    /// The answers of a session: by id, and those with `id: null`.
    struct Session {
        var byID: [Int: [String: Any]] = [:]
        var unnamed: [[String: Any]] = []
        var run: BuiltCommandTests.Run

        func result(_ id: Int) throws -> [String: Any] {
            let answer = try #require(byID[id], "no answer to request \(id): \(run.stderr)")
            return try #require(answer["result"] as? [String: Any], "request \(id) failed: \(answer)")
        }

        func error(_ id: Int) throws -> [String: Any] {
            let answer = try #require(byID[id], "no answer to request \(id)")
            return try #require(answer["error"] as? [String: Any], "request \(id) did not fail: \(answer)")
        }

        /// The texts of a tool result and its `isError`.
        func tool(_ id: Int) throws -> (texts: [String], isError: Bool) {
            let result = try result(id)
            let content = try #require(result["content"] as? [[String: Any]])
            return (content.compactMap { $0["text"] as? String }, result["isError"] as? Bool ?? false)
        }

        /// The code of a refused call's `{"error": {"code", …}}`.
        func refusal(_ id: Int) throws -> String {
            let (texts, isError) = try tool(id)
            #expect(isError)
            let first = try #require(texts.first)
            let object = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
            let error = try #require(object?["error"] as? [String: Any], "not a refusal: \(first)")
            return try #require(error["code"] as? String)
        }
    }

    static func serve(_ script: Script, arguments: [String] = [], in folder: URL) throws -> Session {
        let input = folder.appendingPathComponent("session.jsonl")
        try (script.lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["mcp"] + arguments,
            stdin: input.path,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"]
        )
        var session = Session(run: run)
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "not a JSON object on stdout: \(line)"
            )
            #expect(object["jsonrpc"] as? String == "2.0")
            if let id = object["id"] as? Int {
                session.byID[id] = object
            } else {
                session.unnamed.append(object)
            }
        }
        return session
    }

    /// A root holding a report, a link to a file outside it and a link to a folder outside it; the outside folder
    /// beside it holds a report too.
    static func makeRoots() throws -> (base: URL, root: URL, outside: URL) {
        let base = try BuiltCommandTests.makeFolder()
        let root = base.appendingPathComponent("root")
        let outside = base.appendingPathComponent("outside")
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("reports"), withIntermediateDirectories: true)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        let report = BuiltCommandTests.root.appendingPathComponent(BuiltCommandTests.jetsam)
        try manager.copyItem(at: report, to: root.appendingPathComponent("reports/jetsam.ips"))
        try manager.copyItem(at: report, to: outside.appendingPathComponent("secret.ips"))
        try manager.createSymbolicLink(
            atPath: root.appendingPathComponent("link.ips").path,
            withDestinationPath: outside.appendingPathComponent("secret.ips").path
        )
        try manager.createSymbolicLink(
            atPath: root.appendingPathComponent("reports/elsewhere").path,
            withDestinationPath: outside.path
        )
        return (base, root, outside)
    }

    @Test("initialize, tools/list, inspect as --format json, refusals, an unknown tool, a line that is not JSON")
    func scriptedSession() throws {
        let (base, root, outside) = try Self.makeRoots()
        defer { try? FileManager.default.removeItem(at: base) }
        var script = Script()
        let initialize = try script.request(
            "initialize",
            [
                "protocolVersion": "2025-06-18", "capabilities": [:] as [String: Any],
                "clientInfo": ["name": "test", "version": "1"],
            ]
        )
        try script.notify("notifications/initialized")
        let list = try script.request("tools/list")
        let inspect = try script.call("inspect", ["paths": [BuiltCommandTests.crashText]])
        let dotDot = try script.call("inspect", ["paths": [root.path + "/../outside/secret.ips"]])
        let link = try script.call("inspect", ["paths": [root.appendingPathComponent("link.ips").path]])
        let folder = try script.call("memory-limits", ["paths": [root.appendingPathComponent("reports").path]])
        let absolute = try script.call("inspect", ["paths": [outside.appendingPathComponent("secret.ips").path]])
        let standardInput = try script.call("inspect", ["paths": ["-"]])
        let unknownKey = try script.call("inspect", ["paths": [BuiltCommandTests.jetsam], "format": "text"])
        let unknownTool = try script.call("disassemble", ["paths": [BuiltCommandTests.jetsam]])
        script.raw(#"{"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": "#)
        let inRoot = try script.call(
            "memory-limits",
            ["paths": [root.appendingPathComponent("reports/jetsam.ips").path]]
        )
        let session = try Self.serve(script, arguments: ["--root", root.path], in: base)
        #expect(session.run.status == 0, "\(session.run.stderr)")

        let server = try session.result(initialize)
        #expect((server["serverInfo"] as? [String: Any])?["name"] as? String == "apm-inspect")
        #expect((server["capabilities"] as? [String: Any])?["tools"] != nil)

        let tools = try #require(try session.result(list)["tools"] as? [[String: Any]])
        #expect(
            Set(tools.compactMap { $0["name"] as? String })
                == ["inspect", "symbolicate", "memory-limits", "energy", "http", "report"]
        )
        for tool in tools {
            let schema = try #require(tool["inputSchema"] as? [String: Any], "\(tool["name"] ?? "?")")
            #expect(schema["type"] as? String == "object")
            #expect((schema["required"] as? [String])?.contains("paths") == true)
        }

        let expected = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--format", "json", BuiltCommandTests.crashText]
        )
        let (texts, isError) = try session.tool(inspect)
        #expect(!isError)
        #expect(texts.first == expected.stdout)

        #expect(try session.refusal(dotDot) == "mcp.path-outside-roots")
        #expect(try session.refusal(link) == "mcp.path-outside-roots")
        #expect(try session.refusal(folder) == "mcp.path-outside-roots")
        #expect(try session.refusal(absolute) == "mcp.path-outside-roots")
        #expect(try session.refusal(standardInput) == "mcp.invalid-arguments")
        #expect(try session.refusal(unknownKey) == "mcp.invalid-arguments")
        #expect(try session.error(unknownTool)["code"] as? Int == -32602)

        let parseErrors = session.unnamed.compactMap { $0["error"] as? [String: Any] }
        #expect(parseErrors.map { $0["code"] as? Int } == [-32700])
        #expect(session.byID[99] == nil)

        // After the line that was not JSON, the server still answers, here a file inside --root.
        let (limits, limitsFailed) = try session.tool(inRoot)
        #expect(!limitsFailed)
        let rows = try JSONSerialization.jsonObject(with: Data((limits.first ?? "").utf8)) as? [[String: Any]]
        #expect(rows?.count == 1)
    }

    /// Each tool's result is the command's `--format json` output for the same paths, byte for byte.
    @Test(
        "every tool returns what its command prints with --format json",
        arguments: [
            ("inspect", ["paths": ["Corpus/watchdog"]], ["inspect", "--format", "json", "Corpus/watchdog"]),
            (
                "symbolicate",
                [
                    "paths": ["Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash"],
                    "dsym": ["Tests/SymbolicationTests/Fixtures"],
                ],
                [
                    "symbolicate", "--format", "json", "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash",
                    "--dsym", "Tests/SymbolicationTests/Fixtures",
                ]
            ),
            (
                "memory-limits", ["paths": ["Corpus/jetsam"], "schemaVersion": 2],
                ["memory-limits", "--format", "json", "--schema-version", "2", "Corpus/jetsam"]
            ),
            (
                "energy", ["paths": ["Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"]],
                ["energy", "--format", "json", "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"]
            ),
            (
                "http", ["paths": ["Corpus/http/charles_session.chlsj"]],
                ["http", "--format", "json", "Corpus/http/charles_session.chlsj"]
            ),
            (
                "report", ["paths": ["Corpus/crash", "Corpus/jetsam"]],
                ["report", "--format", "json", "Corpus/crash", "Corpus/jetsam"]
            ),
        ] as [(String, [String: any Sendable], [String])]
    )
    func sameAsCommand(tool: String, arguments: [String: any Sendable], command: [String]) throws {
        let base = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        var script = Script()
        let call = try script.call(tool, arguments)
        let session = try Self.serve(script, in: base)
        let expected = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            command,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"]
        )
        #expect(expected.status == 0, "\(expected.stderr)")
        let (texts, isError) = try session.tool(call)
        #expect(!isError, "\(texts)")
        #expect(texts.first == expected.stdout)
        #expect(!expected.stdout.isEmpty)
    }

    @Test("--root must name a folder: a usage error, before any message is read")
    func rootMustBeAFolder() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["mcp", "--root", BuiltCommandTests.jetsam]
        )
        #expect(run.status == 2)
        #expect(run.stderr.contains("is not a folder"))
        #expect(run.stdout.isEmpty)
    }
}
