// swift-tools-version: 6.1
// Benchmarks live in their own package so `swift build` and `swift test` of the tool never build package-benchmark.
import PackageDescription

let package = Package(
    name: "apm-inspect-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "apm-inspect", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "APMInspectCore", package: "apm-inspect")],
            path: "Support/BenchmarkSupport"
        ),
        .executableTarget(
            name: "CrashThroughput",
            dependencies: [
                .product(name: "CrashReportParsing", package: "apm-inspect"),
                .product(name: "WatchdogAnalysis", package: "apm-inspect"),
                .product(name: "APMInspectCore", package: "apm-inspect"),
            ],
            path: "Tools/CrashThroughput"
        ),
        .executableTarget(
            name: "JetsamBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "JetsamParsing", package: "apm-inspect"),
                .product(name: "APMInspectCore", package: "apm-inspect"),
            ],
            path: "Benchmarks/JetsamBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CrashBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport",
                .product(name: "CrashReportParsing", package: "apm-inspect"),
                .product(name: "WatchdogAnalysis", package: "apm-inspect"),
                .product(name: "APMInspectCore", package: "apm-inspect"),
            ],
            path: "Benchmarks/CrashBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PowerLogBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PowerLogReading", package: "apm-inspect"),
            ],
            path: "Benchmarks/PowerLogBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
