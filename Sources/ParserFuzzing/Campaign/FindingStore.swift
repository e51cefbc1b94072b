import Foundation

/// Findings of a run.
///
/// De-duplicated by failure key, saved under `--out` as they are minimised, summarised at the end. Shared by the job threads.
final class FindingStore: @unchecked Sendable {
    /// What `finding.json` holds.
    struct Record: Codable {
        var kind: String
        var family: String
        var parser: String
        var message: String
        var stack: [String]
        var signal: Int32?
        var seed: UInt64
        var iteration: Int
        var corpusFile: String
        var mutation: String
        var inputBytes: Int
        var minimisedBytes: Int
        var minimisationTests: Int
        var minimisationComplete: Bool
        var directory: String
        var duplicates: Int
    }

    let outputFolder: String
    private let lock = NSLock()
    private var keys: [String: Int] = [:]
    private var records: [Record] = []
    private var folderReady = false

    init(outputFolder: String) {
        self.outputFolder = outputFolder
    }

    /// True the first time `key` is seen: the caller then minimises and saves the finding.
    func claim(_ key: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let index = keys[key] {
            if index >= 0, index < records.count { records[index].duplicates += 1 }
            return false
        }
        keys[key] = -1
        return true
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return keys.count
    }

    var all: [Record] {
        lock.lock()
        defer { lock.unlock() }
        return records
    }

    /// Writes `<out>/<family>-<kind>-<hash>/` with the input, the minimised input, the worker's standard error and
    /// `finding.json`, and a line in `<out>/README.txt`.
    func save(_ record: Record, key: String, input: [UInt8], minimised: [UInt8], stderr: String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        let manager = FileManager.default
        if !folderReady {
            try manager.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
            folderReady = true
        }
        let name = "\(record.family)-\(record.kind)-\(Self.hash(key))"
        let folder = outputFolder + "/" + name
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var saved = record
        saved.directory = folder
        try Data(input).write(to: URL(fileURLWithPath: folder + "/input.bin"))
        try Data(minimised).write(to: URL(fileURLWithPath: folder + "/minimised.bin"))
        if !stderr.isEmpty { try Data(stderr.utf8).write(to: URL(fileURLWithPath: folder + "/stderr.txt")) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(saved).write(to: URL(fileURLWithPath: folder + "/finding.json"))
        let line =
            "\(name)\tseed \(record.seed) iteration \(record.iteration)\t\(record.parser)\t"
            + "\(record.message.split(separator: "\n").first ?? "")\n"
        let readme = outputFolder + "/README.txt"
        if let handle = FileHandle(forWritingAtPath: readme) {
            handle.seekToEndOfFile()
            handle.write(Data(line.utf8))
            handle.closeFile()
        } else {
            try Data(line.utf8).write(to: URL(fileURLWithPath: readme))
        }
        keys[key] = records.count
        records.append(saved)
        return folder
    }

    /// FNV-1a, printed as 8 hex digits: a stable short name for a failure key.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let hex = String(value & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
