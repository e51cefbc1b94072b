import APMInspectCore

/// Values of a JSON report that their typed field cannot hold (`"pid": 1e999`, `"pid": 99999999999999999999`, a
/// negative image base, `"imageIndex": 1.5`, a string where a number belongs), collected while reading.
///
/// Such a value used to leave its field empty with nothing said. Each becomes a warning at its key path, and its
/// text is kept in ``CrashReport/unknownKeys`` under that key path (`"pid"`, `"threads[0].frames[3].imageOffset"`),
/// as the JetsamEvent reader keeps its own mismatches. A class, so that the reader's non-mutating helpers (which
/// fill frames and images in place) can record; bounded by the unknown-entry limits of ``CrashLimitTally``.
final class CrashJSONFieldIssues {
    struct Entry {
        let keyPath: String
        let byteOffset: Int
        let expected: String
        /// The value as written (a container too: nothing nested is dropped); nil only when the limits left it out.
        let value: JSONValue?
    }

    private let tally: CrashLimitTally
    private(set) var entries: [Entry] = []

    init(tally: CrashLimitTally) {
        self.tally = tally
    }

    /// How many of the issues are named one by one; the rest are counted in one diagnostic.
    static let namedIssues = 20

    /// Records `value`, present under `keyPath` but not readable as `expected`.
    ///
    /// A `null` counts as absent.
    func record(_ value: JSONElement, _ keyPath: @autoclosure () -> String, expected: String) {
        guard value.kind != .null else { return }
        let path = keyPath()
        guard tally.admitUnknown(bytes: path.utf8.count + value.sourceRange.count) else { return }
        entries.append(
            Entry(keyPath: path, byteOffset: value.byteOffset, expected: expected, value: value.materialized)
        )
    }

    /// The same for a value read through a ``JSONUnsafeValue`` view.
    func record(_ value: JSONUnsafeValue, _ keyPath: @autoclosure () -> String, expected: String) {
        guard value.kind != .null else { return }
        let path = keyPath()
        let range = value.sourceRange
        guard tally.admitUnknown(bytes: path.utf8.count + range.count) else { return }
        let offset = value.byteRange?.lowerBound ?? range.lowerBound
        entries.append(Entry(keyPath: path, byteOffset: offset, expected: expected, value: value.materialized))
    }

    /// The kept values, as unknownKeys members named by their key paths.
    var members: [JSONValue.Member] {
        entries.compactMap { entry in entry.value.map { JSONValue.Member(key: entry.keyPath, value: $0) } }
    }

    /// One warning per issue for the first ``namedIssues``, located in `document`, then one for the rest.
    func diagnostics(in document: JSONDocument) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for entry in entries.prefix(Self.namedIssues) {
            let what = entry.value == nil ? "ignored it" : "kept the value verbatim in unknownKeys"
            found.append(
                Diagnostic(
                    .warning,
                    .crashFieldWrongType,
                    "expected \(entry.expected) for '\(entry.keyPath)'; \(what)",
                    at: document.location(ofByte: entry.byteOffset, keyPath: entry.keyPath)
                )
            )
        }
        if entries.count > Self.namedIssues {
            found.append(
                Diagnostic(
                    .warning,
                    .crashFieldWrongType,
                    "\(entries.count - Self.namedIssues) more value(s) did not fit their field; kept verbatim in "
                        + "unknownKeys under their key paths",
                    at: nil
                )
            )
        }
        return found
    }
}
