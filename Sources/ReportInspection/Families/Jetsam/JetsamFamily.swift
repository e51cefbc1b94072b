import APMInspectCore
import JetsamParsing

/// JetsamEvent reports (bug_type 298 and 198), by their header or, without one, by their content.
public struct JetsamFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "JetsamEvent" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.jetsamEvent: "JetsamEvent"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard input.isJSONOrIPS else { return nil }
        let container = input.container
        let family = container.bugType?.family
        guard family == .jetsam || (family == nil && JetsamParser.isJetsamEvent(container)) else { return nil }
        do {
            let result = try inspector.jetsam.parse(container)
            return Inspection(
                file: input.path,
                kind: .jetsamEvent,
                diagnostics: result.diagnostics,
                report: .jetsam(result.event),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .jetsamEvent, diagnostics: container.diagnostics, error)
        }
    }
}
