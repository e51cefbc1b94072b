// swift-tools-version: 6.1
// libFuzzer targets for apm-inspect's readers. A separate package, so the root `swift build` and `swift test`
// never see the fuzzer flags. Build (the one comma-separated sanitizer flag keeps both instrumentations):
//   swift build -c debug --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
// See docs/robustness.md and smoke.sh.
import PackageDescription

/// Every fuzz target: name and the library products it drives.
let targets: [(name: String, libraries: [String])] = [
    ("FuzzIPSContainer", ["APMInspectCore"]),
    ("FuzzJetsam", ["JetsamParsing"]),
    ("FuzzJetsamLimits", ["JetsamParsing"]),
    ("FuzzCrashText", ["CrashReportParsing"]),
    ("FuzzCrashJSON", ["CrashReportParsing"]),
    ("FuzzKSCrash", ["CrashReportParsing"]),
    ("FuzzWatchdog", ["CrashReportParsing", "WatchdogAnalysis"]),
    ("FuzzHAR", ["HTTPCaptureParsing"]),
    ("FuzzCharlesJSON", ["HTTPCaptureParsing"]),
    ("FuzzCharlesXML", ["HTTPCaptureParsing"]),
    ("FuzzPacketCapture", ["HTTPCaptureParsing"]),
    ("FuzzDNS", ["HTTPCaptureParsing"]),
    ("FuzzTLS", ["HTTPCaptureParsing"]),
    ("FuzzHTTP1", ["HTTPCaptureParsing"]),
    ("FuzzPowerLog", ["PowerLogReading", "FuzzPropertiesPowerLog"]),
    ("FuzzTar", []),
    ("FuzzGzip", []),
    ("FuzzJSONTape", []),
    ("FuzzJSONEncoder", []),
    ("FuzzMetricKit", ["MetricKitParsing", "CrashReportParsing"]),
    ("FuzzMachO", ["Symbolication"]),
    ("FuzzDWARF", ["Symbolication"]),
    ("FuzzDWARFLine", ["Symbolication"]),
    ("FuzzSwiftDemangle", ["Symbolication"]),
    ("FuzzCxxDemangle", ["Symbolication"]),
]

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "apm-inspect", path: "..")],
    targets: [
        // libFuzzer's LLVMFuzzerMutate, declared for the custom mutators of FuzzSupport.
        .target(name: "LibFuzzerMutate"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "LibFuzzerMutate",
                .product(name: "APMInspectCore", package: "apm-inspect"),
                .product(name: "InputMutation", package: "apm-inspect"),
                // The properties themselves, shared with the replay tests of the root package.
                .product(name: "FuzzProperties", package: "apm-inspect"),
            ]
        ),
    ]
        + targets.map { target in
            .executableTarget(
                name: target.name,
                dependencies: ["FuzzSupport", .product(name: "APMInspectCore", package: "apm-inspect")]
                    + target.libraries.filter { $0 != "APMInspectCore" }.map {
                        .product(name: $0, package: "apm-inspect")
                    }
            )
        }
)
