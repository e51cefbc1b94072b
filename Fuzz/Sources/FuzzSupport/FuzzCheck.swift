import APMInspectCore
@_exported import FuzzProperties

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

/// Stops the run at the first property a ``FuzzChecks`` function found violated.
public func fuzzRequire(_ found: FuzzFindings) {
    if let first = found.violations.first { fatalError("fuzz property violated: \(first)") }
}

/// Checks that `value` encodes as the tool would print it and that the text is strict JSON
/// (``FuzzFindings/requireEncodes(_:_:)``).
public func fuzzCheckEncodes(_ value: some Encodable, _ what: String) {
    var found = FuzzFindings()
    found.requireEncodes(value, what)
    fuzzRequire(found)
}
