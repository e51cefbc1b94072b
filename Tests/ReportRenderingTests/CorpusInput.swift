import Foundation
import ReportInspection

/// Reads the project's own `Corpus/` files and names them by their repository-relative path, so no golden file
/// holds a path of the machine that ran the tests.
enum CorpusInput {
    static func url(_ relative: String) -> URL {
        Golden.repositoryRoot.appendingPathComponent(relative)
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relative)))
    }

    /// The inspection `inspect` makes of the file, from its bytes, under its relative path.
    static func inspection(_ relative: String, with inspector: ReportInspector = ReportInspector()) throws -> Inspection
    {
        inspector.inspect(bytes: try bytes(relative), path: relative)
    }

    /// The report files of a corpus folder, sorted: no README, no `expected/` outputs, no hidden files.
    static func files(in folder: String) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        return names.sorted().compactMap { name in
            guard !name.hasPrefix("."), name != "README.md" else { return nil }
            var isFolder: ObjCBool = false
            let relative = folder + "/" + name
            guard FileManager.default.fileExists(atPath: url(relative).path, isDirectory: &isFolder),
                !isFolder.boolValue
            else { return nil }
            return relative
        }
    }
}
