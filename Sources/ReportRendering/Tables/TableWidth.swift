import ReportSources

/// How wide the text tables of this process may be: a line limit in terminal columns, or none (`--wide`).
///
/// One setting for the whole process rather than a parameter of every renderer: tables are rendered deep inside
/// per-family renderers, on worker threads, and a command asks for one width for all of its output. The executable
/// sets it once, before any work, from `COLUMNS` and `--wide`; a library user that never sets it gets
/// ``fallbackColumns``, so text output stays readable in a log or a mail.
package final class TableWidth: @unchecked Sendable {
    /// The width used when `COLUMNS` is unset or not a usable number: wide enough for most reports, narrow enough
    /// for a side-by-side terminal or a code review.
    package static let fallbackColumns = 100

    /// Narrower than this, a table cannot show a path or a signature that says anything: `COLUMNS=5` is taken
    /// for a mistake rather than obeyed.
    package static let smallestColumns = 20

    /// The setting every ``TextTable/render(indent:)`` reads.
    package static let shared = TableWidth()

    private let lock = NSLockShim()
    private var columns: Int? = TableWidth.fallbackColumns
    private var fitting = false

    /// The limit in columns, nil when cells are printed whole.
    package var limit: Int? {
        get { lock.withLock { columns } }
        set { lock.withLock { columns = newValue } }
    }

    /// True when the whole text view is fitted in ``limit``, not only its tables (``LineFitting``): set by the
    /// commands whose text output is a view for people; a library user's views are left as rendered.
    package var fitsViews: Bool {
        get { lock.withLock { fitting } }
        set { lock.withLock { fitting = newValue } }
    }

    /// The width a text view is fitted in: ``limit`` when ``fitsViews``, else none.
    package var viewLimit: Int? {
        lock.withLock { fitting ? columns : nil }
    }

    /// The limit `COLUMNS` asks for: its value when it is a whole number of at least ``smallestColumns``,
    /// ``fallbackColumns`` otherwise (unset, empty, `abc`, `-3`, `1e9`).
    package static func columns(environment value: String?) -> Int {
        guard let value, let columns = Int(value), columns >= smallestColumns, columns <= 100_000
        else { return fallbackColumns }
        return columns
    }
}
