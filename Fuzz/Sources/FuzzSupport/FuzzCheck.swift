import APMInspectCore

/// Stops the run when a property of the code under test does not hold, so libFuzzer saves the input.
///
/// A trap (not a thrown error) is what libFuzzer reports as a "deadly signal" and writes a crash file for.
public func fuzzRequire(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz property violated: \(message())") }
}

/// The bytes libFuzzer hands over, as an array (the form every reader takes).
public func fuzzBytes(_ start: UnsafeRawPointer, _ count: Int) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: start, count: count))
}

/// Checks that `value` encodes as the tool would print it and that the text is strict JSON.
///
/// The compact output is parsed back strictly, then its own materialized value is encoded again: keys are
/// sorted on the first pass, so the second must give the same bytes. A model that cannot be encoded (a
/// non-finite number) is a finding: the command would print no document for that input.
public func fuzzCheckEncodes(_ value: some Encodable, _ what: String) {
    let encoder = SortedJSONEncoder()
    let text: String
    do {
        text = try encoder.encode(value)
    } catch {
        fatalError("fuzz property violated: \(what) does not encode: \(error)")
    }
    let document: JSONDocument
    do {
        document = try JSONDocument(bytes: Array(text.utf8), options: .strict)
    } catch {
        fatalError("fuzz property violated: the JSON of \(what) is not strict JSON: \(error)")
    }
    let again = try? encoder.encode(document.root.materialized)
    fuzzRequire(again == text, "the JSON of \(what) changes when encoded again")
    let pretty = try? SortedJSONEncoder(pretty: true).encode(value)
    fuzzRequire(pretty != nil, "\(what) encodes compact but not pretty")
}
