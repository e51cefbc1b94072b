import APMInspectCore

/// Collects a reader's findings with their locations, up to a cap: a file with a finding in every frame says so
/// a few dozen times, not once per frame.
struct MetricKitFindings {
    private(set) var diagnostics: [Diagnostic] = []
    private var dropped = 0
    let document: JSONDocument
    static let cap = 64

    init(document: JSONDocument) {
        self.document = document
    }

    /// True when `element` is of `kind`; otherwise a `metricKitWrongType` warning with `message` at `keyPath`
    /// (built only then: a frame's path is walked up from its parents).
    mutating func expect(
        _ element: JSONElement,
        is kind: JSONElement.Kind,
        _ message: @autoclosure () -> String,
        keyPath: @autoclosure () -> String
    ) -> Bool {
        if element.kind == kind { return true }
        add(.warning, .metricKitWrongType, message(), at: element, keyPath: keyPath())
        return false
    }

    mutating func add(
        _ severity: Diagnostic.Severity,
        _ code: Diagnostic.Code,
        _ message: String,
        at element: JSONElement?,
        keyPath: String
    ) {
        guard diagnostics.count < Self.cap else {
            dropped += 1
            return
        }
        let location =
            element.map { document.location(ofByte: $0.byteOffset, keyPath: keyPath.isEmpty ? nil : keyPath) }
            ?? SourceLocation(keyPath: keyPath.isEmpty ? nil : keyPath)
        diagnostics.append(Diagnostic(severity, code, message, at: location))
    }

    /// The findings, with a last note saying how many were left out.
    var all: [Diagnostic] {
        guard dropped > 0 else { return diagnostics }
        return diagnostics + [
            Diagnostic(.note, .metricKitFindingsNotListed, "\(dropped) more findings of the same kinds were not listed")
        ]
    }
}
