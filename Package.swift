// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "apm-inspect",
    products: [
        .executable(name: "apm-inspect", targets: ["apm-inspect"]),
        .library(name: "APMInspectCore", targets: ["APMInspectCore"]),
        .library(name: "AppleDeviceCatalog", targets: ["AppleDeviceCatalog"]),
        .library(name: "JetsamParsing", targets: ["JetsamParsing"]),
        .library(name: "CrashReportParsing", targets: ["CrashReportParsing"]),
        .library(name: "WatchdogAnalysis", targets: ["WatchdogAnalysis"]),
        .library(name: "PowerLogReading", targets: ["PowerLogReading"]),
        .library(name: "HTTPCaptureParsing", targets: ["HTTPCaptureParsing"]),
        .library(name: "InputMutation", targets: ["InputMutation"]),
        // The fuzz properties, for the libFuzzer package in Fuzz/ and the replay tests alike.
        .library(name: "FuzzProperties", targets: ["FuzzProperties"]),
        .library(name: "FuzzPropertiesPowerLog", targets: ["FuzzPropertiesPowerLog"]),
        .library(name: "MetricKitParsing", targets: ["MetricKitParsing"]),
        .library(name: "Symbolication", targets: ["Symbolication"]),
        .library(name: "BackendExport", targets: ["BackendExport"]),
        .library(name: "FleetReport", targets: ["FleetReport"]),
        // The entry point for embedders: any file in, its kind and typed report out (docs/library.md).
        .library(name: "ReportInspection", targets: ["ReportInspection"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation --target ReportInspection` (DocC; .ci/steps/docc.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Network symbol sources only (SymbolServers): the HTTP client and SigV4's HMAC-SHA256.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // AsyncHTTPClient's own event-loop types (ByteBuffer, deadlines), named because SymbolServers uses them.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // `apm-inspect mcp`: the Model Context Protocol server and its stdio transport (MCPServing).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // SSE2 classification of 64-byte blocks of JSON, a header compiled into its callers (block_scan.h says why).
        .systemLibrary(name: "CBlockScan"),
        // __cxa_demangle in a child process that can be stopped, for C++ names that may print exponentially
        // (demangle_sandbox.h says why).
        .systemLibrary(name: "CDemangleSandbox"),
        // glibc's mallopt for the executable (<malloc.h> is not in Swift's Glibc module; AllocatorSettings.swift).
        .systemLibrary(name: "CAllocator"),
        // The one module that holds unsafe pointers (docs/architecture.md, "Unsafe code"): bounds-checked views and
        // cursors over borrowed bytes, which the parsers use instead of `withUnsafeBytes` loops of their own.
        .target(name: "ByteAccess", dependencies: ["CBlockScan"]),
        .target(
            name: "APMInspectCore",
            dependencies: ["ByteAccess", "CZlib", "CBlockScan"]
        ),
        .target(
            name: "AppleDeviceCatalog",
            exclude: ["devices.tsv"]
        ),
        .target(
            name: "JetsamParsing",
            dependencies: ["APMInspectCore", "AppleDeviceCatalog", "ByteAccess"]
        ),
        .target(
            name: "CrashReportParsing",
            dependencies: ["APMInspectCore", "AppleDeviceCatalog", "ByteAccess"]
        ),
        .target(
            name: "WatchdogAnalysis",
            dependencies: ["APMInspectCore", "ByteAccess", "CrashReportParsing"]
        ),
        .target(
            name: "PowerLogReading",
            dependencies: ["APMInspectCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "HTTPCaptureParsing",
            dependencies: ["APMInspectCore", "ByteAccess"]
        ),
        .target(
            name: "InputMutation",
            dependencies: ["APMInspectCore"]
        ),
        .target(
            name: "MetricKitParsing",
            dependencies: ["APMInspectCore", "ByteAccess", "CrashReportParsing"]
        ),
        .target(
            name: "Symbolication",
            dependencies: ["APMInspectCore", "ByteAccess", "CrashReportParsing", "CDemangleSandbox"]
        ),
        .target(
            name: "BackendExport",
            dependencies: [
                "APMInspectCore", "CrashReportParsing", "WatchdogAnalysis", "JetsamParsing", "MetricKitParsing",
            ]
        ),
        .target(
            name: "FleetReport",
            dependencies: [
                "APMInspectCore", "ByteAccess", "CrashReportParsing", "JetsamParsing", "WatchdogAnalysis",
                "MetricKitParsing",
            ]
        ),
        .target(
            name: "ReportInspection",
            dependencies: [
                "APMInspectCore", "JetsamParsing", "CrashReportParsing", "WatchdogAnalysis", "PowerLogReading",
                "HTTPCaptureParsing", "MetricKitParsing", "Symbolication",
            ]
        ),
        // Where every command's reports come from: paths, folders, standard input, FIFOs and tar/tar.gz archives,
        // with one set of limits (docs/architecture.md).
        .target(
            name: "ReportSources",
            dependencies: ["APMInspectCore", "ReportInspection"]
        ),
        // `apm-inspect fuzz`: the corpus, the supervisor and its worker processes, the oracle and the findings
        // (docs/fuzzing.md); the executable passes its own path, the worker's arguments and how it prints.
        .target(
            name: "ParserFuzzing",
            dependencies: [
                "APMInspectCore", "CrashReportParsing", "HTTPCaptureParsing", "InputMutation", "ReportInspection",
                "Symbolication", "ByteAccess",
            ]
        ),
        // Symbol servers and S3 buckets as symbol sources: fetch by UUID, SigV4, the shared download cache. Apart
        // so the parsers never depend on NIO.
        .target(
            name: "SymbolServers",
            dependencies: [
                "APMInspectCore", "ByteAccess", "Symbolication",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The text, JSON, Markdown, CSV and HTML views of the models: pure functions of a report (or a sink for the
        // documents written as they are encoded), so they are tested against golden files without the executable.
        .target(
            name: "ReportRendering",
            dependencies: [
                "APMInspectCore", "JetsamParsing", "CrashReportParsing", "WatchdogAnalysis", "PowerLogReading",
                "HTTPCaptureParsing", "MetricKitParsing", "Symbolication", "BackendExport", "FleetReport",
                "ReportInspection", "ReportSources", "SymbolServers", "ByteAccess",
            ]
        ),
        // `apm-inspect mcp`: the commands' JSON envelopes as Model Context Protocol tools over stdio, confined to the
        // folders the user allowed (docs/mcp.md).
        .target(
            name: "MCPServing",
            dependencies: [
                "APMInspectCore", "JetsamParsing", "HTTPCaptureParsing", "FleetReport", "ReportInspection",
                "ReportRendering", "ReportSources", .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .executableTarget(
            name: "apm-inspect",
            dependencies: [
                "CAllocator",
                "ReportInspection",
                "ReportRendering",
                "ReportSources",
                "APMInspectCore",
                "AppleDeviceCatalog",
                "JetsamParsing",
                "CrashReportParsing",
                "WatchdogAnalysis",
                "PowerLogReading",
                "HTTPCaptureParsing",
                "InputMutation",
                "MetricKitParsing",
                "Symbolication",
                "BackendExport",
                "FleetReport",
                "ParserFuzzing",
                "MCPServing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helpers shared by the families: the fuzz replay inputs (one copy, not six), the zlib compressor and
        // the check that a model's hand-written JSON is its Codable form.
        .target(
            name: "FuzzReplaySupport",
            dependencies: ["APMInspectCore", "CZlib", "FuzzProperties", "InputMutation"],
            path: "Tests/FuzzReplaySupport"
        ),
        // What the rendering and fleet tests share: a sink that keeps what a streaming renderer writes.
        .target(
            name: "RenderingTestSupport",
            dependencies: ["ReportRendering"],
            path: "Tests/RenderingTestSupport"
        ),
        // One function per fuzz target's properties, run by Fuzz/Sources and by the FuzzFailCaseTests suites.
        .target(
            name: "FuzzProperties",
            dependencies: [
                "APMInspectCore", "ByteAccess", "JetsamParsing", "CrashReportParsing", "WatchdogAnalysis",
                "HTTPCaptureParsing", "MetricKitParsing", "Symbolication",
            ],
            path: "Tests/FuzzProperties"
        ),
        // The PowerLog check apart: PowerLogReading brings GRDB, whose operators slow type-checking where visible.
        .target(
            name: "FuzzPropertiesPowerLog",
            dependencies: ["FuzzProperties", "PowerLogReading"],
            path: "Tests/FuzzPropertiesPowerLog"
        ),
        // A real HTTP symbol server for the tests (python3 over a temporary folder in both layouts).
        .target(
            name: "SymbolServerTestSupport",
            path: "Tests/SymbolServerTestSupport",
            exclude: ["symbol_server.py"]
        ),
        .testTarget(
            name: "SymbolServersTests",
            dependencies: [
                "SymbolServers", "SymbolServerTestSupport", "Symbolication", "CrashReportParsing", "APMInspectCore",
            ]
        ),
        .testTarget(
            name: "APMInspectCoreTests",
            dependencies: [
                "ByteAccess",
                "FuzzReplaySupport",
                "APMInspectCore",
                "CZlib",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "AppleDeviceCatalogTests",
            dependencies: ["AppleDeviceCatalog"]
        ),
        .testTarget(
            name: "JetsamParsingTests",
            dependencies: [
                "FuzzReplaySupport",
                "JetsamParsing",
                "APMInspectCore",
                "AppleDeviceCatalog",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "CrashReportParsingTests",
            dependencies: [
                "ByteAccess",
                "FuzzReplaySupport",
                "CrashReportParsing", "APMInspectCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "WatchdogAnalysisTests",
            dependencies: [
                "FuzzReplaySupport", "WatchdogAnalysis", "CrashReportParsing", "APMInspectCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PowerLogReadingTests",
            dependencies: [
                "FuzzReplaySupport", "FuzzPropertiesPowerLog",
                "PowerLogReading", "APMInspectCore", .product(name: "GRDB", package: "GRDB.swift"), "CZlib",
            ]
        ),
        .testTarget(
            name: "HTTPCaptureParsingTests",
            dependencies: [
                "ByteAccess",
                "FuzzReplaySupport",
                "HTTPCaptureParsing",
                "APMInspectCore",
                "CZlib",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "InputMutationTests",
            dependencies: ["InputMutation", "APMInspectCore"]
        ),
        .testTarget(
            name: "MetricKitParsingTests",
            dependencies: [
                "FuzzReplaySupport", "MetricKitParsing", "CrashReportParsing", "APMInspectCore", "ByteAccess",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SymbolicationTests",
            dependencies: [
                "ByteAccess",
                "FuzzReplaySupport", "FuzzProperties", "Symbolication", "CrashReportParsing", "APMInspectCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures", "SystemFixtures", "ThumbFixtures"]
        ),
        .testTarget(
            name: "BackendExportTests",
            dependencies: [
                "BackendExport", "APMInspectCore", "CrashReportParsing", "WatchdogAnalysis", "JetsamParsing",
                "MetricKitParsing", "InputMutation", "FuzzReplaySupport",
            ]
        ),
        .testTarget(
            name: "FleetReportTests",
            dependencies: [
                "FleetReport", "ReportInspection", "ReportRendering", "ReportSources", "apm-inspect",
                "FuzzReplaySupport",
                "APMInspectCore", "CrashReportParsing", "RenderingTestSupport",
            ]
        ),
        .testTarget(
            name: "ReportInspectionTests",
            dependencies: [
                "FuzzReplaySupport", "ReportInspection", "APMInspectCore", "CrashReportParsing", "JetsamParsing",
                "MetricKitParsing", "HTTPCaptureParsing",
                "PowerLogReading", "Symbolication",
            ]
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: [
                "apm-inspect", "ParserFuzzing", "ReportInspection", "ReportRendering", "ReportSources",
                "FuzzReplaySupport",
                "FleetReport", "SymbolServerTestSupport", "MCPServing",
            ]
        ),
        .testTarget(
            name: "ParserFuzzingTests",
            dependencies: ["ParserFuzzing", "ReportInspection", "APMInspectCore", "CrashReportParsing"]
        ),
        .testTarget(
            name: "ReportRenderingTests",
            dependencies: [
                "ReportRendering", "ReportInspection", "APMInspectCore", "JetsamParsing", "FleetReport",
                "PowerLogReading", "HTTPCaptureParsing", "FuzzReplaySupport", "RenderingTestSupport",
            ],
            // Read at run time from the source tree (Golden.swift), so APM_UPDATE_GOLDEN=1 can rewrite them.
            exclude: ["golden"]
        ),
    ]
)
