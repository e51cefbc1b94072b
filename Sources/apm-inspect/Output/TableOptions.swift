import ArgumentParser
import Foundation
import ReportRendering

/// `--wide`, shared by the commands whose text output has tables, so each says and reads it alike.
struct TableOptions: ParsableArguments {
    @Flag(
        help: """
            Print table cells and lines whole. Without it, text output fits in COLUMNS columns (100 when COLUMNS \
            is unset): long signatures, paths and names are shortened in the middle, marked by an ellipsis.
            """
    )
    var wide = false

    /// The limit of every table of the run: none with `--wide`, else what `COLUMNS` asks for.
    var limit: Int? {
        wide ? nil : TableWidth.columns(environment: ProcessInfo.processInfo.environment["COLUMNS"])
    }
}

/// A command whose text output has tables: ``APMInspect/main()`` sets their width from its ``TableOptions``
/// before it runs, so no command can forget to.
protocol PrintsTables {
    var tableOptions: TableOptions { get }
}
