import APMInspectCore

/// A parsed JetsamEvent with the findings made while reading it.
public struct JetsamParseResult: Sendable, Equatable {
    /// The event, as complete as the input allowed.
    public var event: JetsamEvent
    /// Repairs, skipped data and missing facts, with their locations.
    public var diagnostics: [Diagnostic]

    package init(event: JetsamEvent, diagnostics: [Diagnostic]) {
        self.event = event
        self.diagnostics = diagnostics
    }
}
