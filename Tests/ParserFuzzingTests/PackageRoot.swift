import Foundation

/// The package root, from this file's path (Tests/ParserFuzzingTests/…): the fixtures and Corpus/ are read from
/// the checkout, as `swift test` runs from anywhere.
enum PackageRoot {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
