import ReportInspection

/// Prints envelopes one at a time, as they are read: one pretty object, a pretty array built element by element
/// (the layout of the whole array encoded at once), or one line each.
///
/// Used by one thread at a time (a command's loop, or the consumer of `ParallelMap.forEachInOrder`, which never
/// runs twice at once), hence `@unchecked Sendable`.
package final class EnvelopePrinter: @unchecked Sendable {
    package let format: OutputFormat
    package private(set) var oneObject: Bool
    /// Where the envelopes go (the executable's console).
    package let sink: OutputSink
    /// True once the array (or the single object) was begun: the shape is settled.
    package private(set) var begun = false
    /// Envelopes printed so far (the array's separators).
    package var printed = 0

    /// `oneObject`: `--format json` prints the single envelope as an object (see `InspectCommand.printsOneObject`).
    package init(format: OutputFormat, oneObject: Bool, sink: OutputSink) {
        self.format = format
        self.oneObject = oneObject
        self.sink = sink
    }

    /// Opens the array, before the first envelope; later calls do nothing.
    ///
    /// `count` is the number of envelopes of the first input, when known: a single input that gave other than one
    /// (standard input that held an archive) is printed as an array after all. `fromArchive`: the input was an
    /// archive, which gives an array whatever it holds, as the archive's file does (`cat x.tar.gz | … -` prints
    /// what `… x.tar.gz` prints).
    package func begin(count: Int? = nil, fromArchive: Bool = false) {
        guard !begun else { return }
        begun = true
        if let count, count != 1 { oneObject = false }
        if fromArchive { oneObject = false }
        if format == .json && !oneObject { sink.out("[\n") }
    }

    /// Prints one envelope; true when it had to be replaced by its error envelope (exit status 1).
    package func print(_ inspection: Inspection) -> Bool {
        defer { printed += 1 }
        switch format {
        case .json where !oneObject:
            return JSONOutput.printEnvelope(
                inspection,
                pretty: true,
                depth: 1,
                prefix: printed == 0 ? "  " : ",\n  ",
                suffix: "",
                to: sink
            )
        case .json:
            return JSONOutput.printEnvelope(inspection, pretty: true, to: sink)
        default:
            return JSONOutput.printEnvelope(inspection, pretty: false, to: sink)
        }
    }

    /// Closes the array (opened first when no input came).
    package func finish() {
        begin()
        if format == .json && !oneObject { sink.out("\n]\n") }
    }
}
