import Foundation

/// Paths of the repository's own PowerLog corpus (Corpus/powerlog), found from this file's location.
enum CorpusSupport {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static func path(_ relative: String) -> String { root + "/Corpus/powerlog/" + relative }

    static let ios15 = path("ios15_offset-change_D16AP_19H12.PLSQL")
    static let ios15Gzip = path("ios15_offset-change_D16AP_19H12_copy.PLSQL.gz")
    static let ios8 = path("ios8_BLMAppEnergyBreakdown_N51AP_12B411.PLSQL")
    static let rotated = [
        path("rotated/powerlog_2023-11-05_07-00_1A2B3C4D.PLSQL"),
        path("rotated/powerlog_2023-11-05_12-00_5E6F7A8B.PLSQL.gz"),
    ]

    static let sysdiagnose = path("sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12.tar.gz")

    /// A fresh private folder for databases a test writes; the caller removes it.
    static func scratchFolder() throws -> String {
        let path = NSTemporaryDirectory() + "powerlog-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
