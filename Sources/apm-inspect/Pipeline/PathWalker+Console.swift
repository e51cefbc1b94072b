import APMInspectCore
import ArgumentParser
import ReportRendering
import ReportSources

// The walk's notes and failures as the commands print them, and its usage problem as a usage error: ReportSources
// hands them over as values, the executable writes them to standard error.
extension PathWalker {
    /// Throws a usage error when `-` is given more than once: standard input can be read only once.
    static func validate(_ paths: [String]) throws(ValidationError) {
        if let problem = usageProblem(paths) { throw ValidationError(problem) }
    }

    /// Prints a note of the walk (a link loop, a FIFO, a dangling link in a folder).
    static func printNote(_ note: Failure) {
        Console.error(ErrorLine.render(path: note.path, location: nil, message: note.message, severity: "note"))
    }

    /// Prints a path that gave no file.
    static func printFailure(_ failure: Failure) {
        Console.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
    }

    /// The inputs named by `paths`, notes printed as they are met.
    static func inputs(in paths: [String]) -> [Input] {
        inputs(in: paths, note: printNote)
    }

    /// The files named by `paths` and the failures, notes printed as they are met.
    static func rawFiles(in paths: [String]) -> (files: [RawPath], failures: [Failure]) {
        rawFiles(in: paths, note: printNote)
    }

    /// The same as text, notes printed as they are met.
    static func files(in paths: [String]) -> (files: [String], failures: [Failure]) {
        files(in: paths, note: printNote)
    }
}

extension WalkedFiles {
    /// The walk of a command's paths, its notes and failures printed where it meets them.
    convenience init(_ paths: [String]) {
        self.init(paths, note: PathWalker.printNote, failure: PathWalker.printFailure)
    }
}
