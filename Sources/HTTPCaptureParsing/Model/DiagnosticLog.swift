import APMInspectCore

/// Collects diagnostics, keeping at most a few of each kind so a large capture with one quirk on every entry
/// reports it once with a count instead of a million times.
struct DiagnosticLog {
    private(set) var diagnostics: [Diagnostic] = []
    private var counts: [String: Int] = [:]
    private var order: [String] = []
    let perKind: Int

    init(perKind: Int = 5) {
        self.perKind = perKind
    }

    /// Records a diagnostic of `kind` (a stable key such as `negative-timing`).
    mutating func add(_ kind: String, _ severity: Diagnostic.Severity, _ message: String, at location: SourceLocation?)
    {
        let seen = counts[kind, default: 0]
        if seen == 0 { order.append(kind) }
        counts[kind] = seen + 1
        if seen < perKind { diagnostics.append(Diagnostic(severity, message, at: location)) }
    }

    /// The diagnostics, with one note per kind that was cut short.
    func finished() -> [Diagnostic] {
        var out = diagnostics
        for kind in order {
            let count = counts[kind, default: 0]
            if count > perKind {
                out.append(Diagnostic(.note, "\(count - perKind) more of the same (\(kind)) not listed", at: nil))
            }
        }
        return out
    }
}
