import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AnonymizationRun {
    /// Why `output` cannot receive the copies of `inputs`; nil when it can.
    ///
    /// Asked before anything is read: it is an input, lies inside a folder given as input, holds one, or is the
    /// folder of a file given. Nothing is ever written beside the user's files, where a copy could be mistaken for
    /// the original or swept into what is shared.
    package static func outputProblem(_ output: String, inputs: [String]) -> String? {
        guard let target = resolved(output) else { return nil }
        for input in inputs where input != PathWalker.standardInputArgument {
            guard let source = resolved(input) else { continue }
            if target == source { return "it is the input \(input); inputs are never overwritten" }
            if PathWalker.isFolder(input) {
                if target.hasPrefix(source == "/" ? "/" : source + "/") {
                    return "it is inside the input folder \(input); nothing is written beside the inputs"
                }
            } else if parent(of: source) == target {
                return "it is the folder of the input \(input); nothing is written beside the inputs"
            }
            if source.hasPrefix(target == "/" ? "/" : target + "/") {
                return "it holds the input \(input); nothing is written beside the inputs"
            }
        }
        return nil
    }

    /// The absolute path of `path` with links resolved; for a path that does not exist yet, its nearest existing
    /// folder's resolved, followed by the rest as given.
    static func resolved(_ path: String) -> String? {
        var head = path.isEmpty ? "." : path
        var tail: [String] = []
        for _ in 0..<256 {
            if let real = realpath(head, nil) {
                defer { free(real) }
                let base = String(cString: real)
                return tail.reversed().reduce(base) { ($0 == "/" ? "" : $0) + "/" + $1 }
            }
            let trimmed = head.hasSuffix("/") && head.count > 1 ? String(head.dropLast()) : head
            guard let slash = trimmed.lastIndex(of: "/") else {
                tail.append(trimmed)
                head = "."
                continue
            }
            tail.append(String(trimmed[trimmed.index(after: slash)...]))
            head = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
        }
        return nil
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
