import APMInspectCore

/// A finding about the fleet report's inputs, with its stable code: what `findings` says as a line, as data.
///
/// `findings` (lines) came first and stays; a pipeline that acts on findings reads these instead, by `code`
/// (docs/diagnostics.md), never by wording.
public struct FleetFinding: Sendable, Equatable, Encodable {
    /// The input the finding is about: an archive, an NDJSON file, a file that could not be read.
    public var file: String
    /// What was found, with its code and severity.
    public var diagnostic: Diagnostic

    package init(file: String, diagnostic: Diagnostic) {
        self.file = file
        self.diagnostic = diagnostic
    }

    /// The line the text views list under findings.
    public var line: String {
        diagnostic.findingLine(about: file)
    }

    private enum Keys: String, CodingKey {
        case file
    }

    /// The diagnostic's own keys (`severity`, `code`, `message`, `location`) and `file` beside them.
    public func encode(to encoder: any Encoder) throws {
        try diagnostic.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(file, forKey: .file)
    }
}
