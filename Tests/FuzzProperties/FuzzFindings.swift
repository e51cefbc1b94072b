import APMInspectCore

/// What one fuzz check found: the properties that did not hold, in the order they were checked.
///
/// The libFuzzer harnesses (Fuzz/Sources) trap on the first one, so libFuzzer saves the input; the replay tests
/// (`FuzzFailCaseTests`) record each as an issue. Both run the same ``FuzzChecks`` function.
public struct FuzzFindings: Sendable, Equatable {
    public private(set) var violations: [String] = []

    public init() {}

    public var isEmpty: Bool { violations.isEmpty }

    /// Records `message` unless `condition` holds.
    public mutating func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { violations.append(message()) }
    }

    /// Checks that `value` encodes as the tool would print it and that the text is strict JSON.
    ///
    /// The compact output is parsed back strictly, then its own materialized value is encoded again: keys are
    /// sorted on the first pass, so the second must give the same bytes. A model that cannot be encoded (a
    /// non-finite number) is a finding: the command would print no document for that input.
    public mutating func requireEncodes(_ value: some Encodable, _ what: String) {
        let encoder = SortedJSONEncoder()
        let text: String
        do {
            text = try encoder.encode(value)
        } catch {
            violations.append("\(what) does not encode: \(error)")
            return
        }
        let document: JSONDocument
        do {
            document = try JSONDocument(bytes: Array(text.utf8), options: .strict)
        } catch {
            violations.append("the JSON of \(what) is not strict JSON: \(error)")
            return
        }
        let again = try? encoder.encode(document.root.materialized)
        require(again == text, "the JSON of \(what) changes when encoded again")
        let pretty = try? SortedJSONEncoder(pretty: true).encode(value)
        require(pretty != nil, "\(what) encodes compact but not pretty")
    }
}
