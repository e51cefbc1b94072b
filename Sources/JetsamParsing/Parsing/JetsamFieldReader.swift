import APMInspectCore

/// Reads typed values out of JSON elements, reporting type mismatches and keeping mismatched values verbatim.
struct JetsamFieldReader {
    /// Capped per kind and in all (``DiagnosticLog``): a body of a million mistyped values says so a few times.
    private var log = DiagnosticLog(perKind: 20, total: 1_000)
    /// What is left of the report's allowance for unknown and mistyped values kept verbatim
    /// (``JetsamParseOptions/maxUnknownEntries`` and ``JetsamParseOptions/maxUnknownBytes``).
    private var unknownEntriesLeft: Int
    private var unknownBytesLeft: Int
    private var unknownDropped = (entries: 0, bytes: 0)

    init(options: JetsamParseOptions = JetsamParseOptions()) {
        unknownEntriesLeft = options.maxUnknownEntries
        unknownBytesLeft = options.maxUnknownBytes
    }

    /// The diagnostics so far, with the notes for what the caps left out.
    var diagnostics: [Diagnostic] {
        var all = log.finished()
        if unknownDropped.entries > 0 {
            all.append(
                Diagnostic(
                    .warning,
                    .jetsamUnknownValuesLimit,
                    "\(unknownDropped.entries) unknown or mistyped value(s) (\(unknownDropped.bytes) bytes) past the "
                        + "allowance kept in unknownKeys were not kept"
                )
            )
        }
        return all
    }

    /// Adds a diagnostic of `code`: only the first of each code (and `group`) are listed, the rest counted.
    mutating func add(
        _ code: Diagnostic.Code,
        _ severity: Diagnostic.Severity,
        _ message: @autoclosure () -> String,
        at location: @autoclosure () -> SourceLocation?,
        group: String? = nil
    ) {
        log.add(code, severity, message(), at: location(), group: group)
    }

    /// Keeps `value` verbatim under `key` in `unknown` while the report's allowance lasts, and counts it after.
    mutating func keep(_ key: String, _ value: JSONElement, in unknown: inout [JSONValue.Member]) {
        let bytes = key.utf8.count + value.sourceRange.count
        guard unknownEntriesLeft > 0, bytes <= unknownBytesLeft else {
            unknownDropped.entries += 1
            unknownDropped.bytes += bytes
            return
        }
        unknownEntriesLeft -= 1
        unknownBytesLeft -= bytes
        unknown.append(JSONValue.Member(key: key, value: value.materialized))
    }

    mutating func uint(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member])
        -> UInt64?
    {
        if let number = value.uint64 { return number }
        if value.kind == .number, let double = value.double, let exact = UInt64(exactly: double) { return exact }
        mismatch(value, key, path, expected: "an unsigned integer", unknown: &unknown)
        return nil
    }

    mutating func int(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member]) -> Int64?
    {
        if let number = value.int64 { return number }
        mismatch(value, key, path, expected: "an integer", unknown: &unknown)
        return nil
    }

    mutating func double(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member])
        -> Double?
    {
        // `1e999` reads as infinity, which the model cannot hold as the report wrote it (JSON output would
        // print null): the value stays verbatim in unknownKeys, with a warning.
        if let number = value.double, number.isFinite { return number }
        mismatch(value, key, path, expected: value.kind == .number ? "a finite number" : "a number", unknown: &unknown)
        return nil
    }

    mutating func string(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member])
        -> String?
    {
        if let text = value.string {
            if value.isTruncated {
                add(
                    .jetsamCutOffValue,
                    .warning,
                    "value was cut off; kept the part that was read",
                    at: value.document.location(ofByte: value.byteOffset, keyPath: Self.join(path, key))
                )
            }
            return text
        }
        // Numbers where Apple writes strings (a hand-edited `"bug_type" : 298`) keep their text.
        if value.kind == .number, let raw = value.rawText { return raw }
        mismatch(value, key, path, expected: "a string", unknown: &unknown)
        return nil
    }

    mutating func strings(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member])
        -> [String]?
    {
        array(value, key, path, of: "strings", each: "a string", unknown: &unknown) { $0.string }
    }

    mutating func uints(_ value: JSONElement, _ key: String, _ path: String, unknown: inout [JSONValue.Member])
        -> [UInt64]?
    {
        array(value, key, path, of: "integers", each: "an unsigned integer", unknown: &unknown) { $0.uint64 }
    }

    /// The elements of an array that `read` can read; each other element is kept verbatim with a warning, and a
    /// value that is no array at all in its place, so one mistyped element loses nothing else.
    private mutating func array<Element>(
        _ value: JSONElement,
        _ key: String,
        _ path: String,
        of plural: String,
        each singular: String,
        unknown: inout [JSONValue.Member],
        _ read: (JSONElement) -> Element?
    ) -> [Element]? {
        guard value.kind == .array else {
            mismatch(value, key, path, expected: "an array of \(plural)", unknown: &unknown)
            return nil
        }
        var result: [Element] = []
        result.reserveCapacity(value.count)
        for element in value.elements {
            if let read = read(element) {
                result.append(read)
            } else {
                mismatch(element, key, path, expected: singular, unknown: &unknown)
            }
        }
        return result
    }

    /// Warns that `value` is not `expected` and keeps it verbatim in `unknown`, under `key`.
    mutating func mismatch(
        _ value: JSONElement,
        _ key: String,
        _ path: String,
        expected: String,
        unknown: inout [JSONValue.Member]
    ) {
        add(
            .jetsamMistypedValue,
            .warning,
            "expected \(expected) for '\(key)'; kept the value verbatim in unknownKeys",
            at: value.document.location(ofByte: value.byteOffset, keyPath: Self.join(path, key)),
            group: key
        )
        keep(key, value, in: &unknown)
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
