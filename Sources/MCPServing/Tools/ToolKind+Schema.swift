import MCP

extension ToolKind {
    /// The tool as `tools/list` shows it from a server started without symbol sources.
    package var tool: Tool { tool(symbolSources: false) }

    /// The tool as `tools/list` shows it; with `symbolSources` (the server's `--symbols`), `symbolicate` needs no
    /// `dsym`, since the sources find dSYMs by UUID.
    package func tool(symbolSources: Bool) -> Tool {
        Tool(
            name: rawValue,
            description: summary + " The same JSON as `\(commandLine)`. Paths are resolved on the server, "
                + "relative to the folder it was started in, and must lie in the folders it allows.",
            inputSchema: inputSchema(symbolSources: symbolSources),
            annotations: Tool.Annotations(
                title: "apm-inspect \(rawValue)",
                readOnlyHint: true,
                destructiveHint: false,
                idempotentHint: true,
                openWorldHint: false
            )
        )
    }

    /// The keys a call may give besides `paths`, with their schemas.
    var options: [String: Value] { options(symbolSources: false) }

    /// The keys a call may give besides `paths`, with their schemas, for a server with or without symbol sources.
    func options(symbolSources: Bool) -> [String: Value] {
        switch self {
        case .inspect:
            [
                "array": Self.boolean("Return an array even for a single file."),
                "app": Self.strings("Only this app's reports: bundle ids or process names."),
                "dsym": Self.strings("Symbolicate crash reports with these dSYMs, Mach-O files, folders or zips."),
            ]
        case .symbolicate:
            [
                "dsym": symbolSources
                    ? Self.strings(
                        "More dSYMs, Mach-O files, folders or zips, besides the symbol sources the server was "
                            + "started with."
                    )
                    : Self.strings("dSYMs, Mach-O files, folders or zips to symbolicate with.", minItems: 1),
                "force": Self.boolean("Re-resolve frames that already have a symbol."),
            ]
        case .memoryLimits:
            [
                "includeAll": Self.boolean("Also count beta builds, modified kernels and non-iOS reports."),
                "schemaVersion": .object([
                    "type": "integer",
                    "enum": [1, 2],
                    "description": .string(
                        "1: an array of rows (as the command prints without --schema-version); "
                            + "2: an object with the rows, the summary and the diagnostics."
                    ),
                ]),
            ]
        case .energy:
            [:]
        case .http:
            [
                "array": Self.boolean("Return an array even for a single file."),
                "showSecrets": Self.boolean("Keep the values of Authorization, Cookie and Set-Cookie headers."),
            ]
        case .report:
            [
                "since": Self.string("Only reports written on or after this day (2024-06-01, UTC) or ISO 8601 time."),
                "app": Self.strings("Only these apps' reports: bundle ids or process names."),
                "version": Self.string("Only this app version or build."),
            ]
        }
    }

    /// The keys a call must give.
    func required(symbolSources: Bool) -> [String] {
        self == .symbolicate && !symbolSources ? ["paths", "dsym"] : ["paths"]
    }

    func inputSchema(symbolSources: Bool) -> Value {
        var properties = options(symbolSources: symbolSources)
        properties["paths"] = Self.strings(
            "Files, folders or tar/tar.gz archives to read, inside the allowed folders.",
            minItems: 1
        )
        return .object([
            "type": "object",
            "properties": .object(properties),
            "required": .array(required(symbolSources: symbolSources).map { .string($0) }),
            "additionalProperties": false,
        ])
    }

    private static func strings(_ description: String, minItems: Int = 0) -> Value {
        var schema: [String: Value] = [
            "type": "array",
            "items": .object(["type": "string"]),
            "description": .string(description),
        ]
        if minItems > 0 { schema["minItems"] = .int(minItems) }
        return .object(schema)
    }

    private static func boolean(_ description: String) -> Value {
        .object(["type": "boolean", "description": .string(description)])
    }

    private static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }
}
