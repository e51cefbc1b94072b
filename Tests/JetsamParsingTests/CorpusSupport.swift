import APMInspectCore
import Foundation

/// Finds the repository's Corpus/ folder from this source file, so tests run on a fresh clone with no set-up.
enum CorpusSupport {
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var jetsamFolder: URL { root.appendingPathComponent("Corpus/jetsam") }

    /// Every report in Corpus/jetsam (README and expected outputs excluded).
    static var jetsamFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: jetsamFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".ips") || $0.hasSuffix(".synced") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileReading.contents(atPath: jetsamFolder.appendingPathComponent(name).path)
    }

    /// The same encoder settings as `apm-inspect --format json`.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
