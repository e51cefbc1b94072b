import Foundation

/// Expands the paths a user gives into the regular files under them, recursively, in a stable order.
enum PathWalker {
    /// A path that could not be walked.
    struct Failure: Error {
        var path: String
        var message: String
    }

    /// The files named by `paths`: files as given, folders walked recursively (hidden files included, since
    /// devices write `.ips.synced` copies; symbolic links to folders are not followed, to avoid loops).
    static func files(in paths: [String]) -> (files: [String], failures: [Failure]) {
        var files: [String] = []
        var failures: [Failure] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append(Failure(path: path, message: "no such file or directory"))
                continue
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                failures.append(Failure(path: path, message: "cannot list the folder"))
                continue
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
                if let type = enumerator.fileAttributes?[.type] as? FileAttributeType, type == .typeRegular {
                    found.append(full)
                }
            }
            files += found.sorted()
        }
        return (files, failures)
    }
}
