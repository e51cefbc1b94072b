// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "apm-inspect",
    products: [
        .executable(name: "apm-inspect", targets: ["apm-inspect"]),
        .library(name: "APMInspectCore", targets: ["APMInspectCore"]),
        .library(name: "AppleDeviceCatalog", targets: ["AppleDeviceCatalog"]),
        .library(name: "JetsamParsing", targets: ["JetsamParsing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "APMInspectCore",
            dependencies: ["CZlib"]
        ),
        .target(
            name: "AppleDeviceCatalog",
            exclude: ["devices.tsv"]
        ),
        .target(
            name: "JetsamParsing",
            dependencies: ["APMInspectCore", "AppleDeviceCatalog"]
        ),
        .executableTarget(
            name: "apm-inspect",
            dependencies: [
                "APMInspectCore",
                "AppleDeviceCatalog",
                "JetsamParsing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "APMInspectCoreTests",
            dependencies: [
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
                "JetsamParsing",
                "APMInspectCore",
                "AppleDeviceCatalog",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)
