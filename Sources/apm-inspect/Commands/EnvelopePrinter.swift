import ReportInspection
import ReportRendering

/// Prints envelopes one at a time, as they are read: one pretty object, a pretty array built element by element
/// (the layout of the whole array encoded at once), or one line each.
///
/// Used by one thread at a time (a command's loop, or the consumer of `ParallelMap.forEachInOrder`, which never
/// runs twice at once), hence `@unchecked Sendable`.
final class EnvelopePrinter: @unchecked Sendable {
    let format: OutputFormat
    private(set) var oneObject: Bool
    private var begun = false
    /// Envelopes printed so far (the array's separators).
    var printed = 0

    /// `oneObject`: `--format json` prints the single envelope as an object (see `InspectCommand.printsOneObject`).
    init(format: OutputFormat, oneObject: Bool) {
        self.format = format
        self.oneObject = oneObject
    }

    /// Opens the array, before the first envelope; later calls do nothing.
    ///
    /// `count` is the number of envelopes of the first input, when known: a single input that gave other than one
    /// (standard input that held an archive) is printed as an array after all.
    func begin(count: Int? = nil) {
        guard !begun else { return }
        begun = true
        if let count, count != 1 { oneObject = false }
        if format == .json && !oneObject { Console.out("[\n") }
    }

    /// Prints one envelope; true when it had to be replaced by its error envelope (exit status 1).
    func print(_ inspection: Inspection) -> Bool {
        defer { printed += 1 }
        switch format {
        case .json where !oneObject:
            return JSONOutput.printEnvelope(
                inspection,
                pretty: true,
                depth: 1,
                prefix: printed == 0 ? "  " : ",\n  ",
                suffix: "",
                to: .console
            )
        case .json:
            return JSONOutput.printEnvelope(inspection, pretty: true, to: .console)
        default:
            return JSONOutput.printEnvelope(inspection, pretty: false, to: .console)
        }
    }

    /// Closes the array (opened first when no input came).
    func finish() {
        begin()
        if format == .json && !oneObject { Console.out("\n]\n") }
    }
}
