/// Collects the diagnostics of one read, keeping at most a few of each kind and a bounded number in all.
///
/// A large file with one quirk in every entry reports it a few times with a count instead of a million times: a
/// diagnostic costs a message and a location, so an uncapped list grew faster than the input (a 4 MB JetsamEvent
/// of mistyped values held two million of them). The message and location are made only for the ones kept.
package struct DiagnosticLog: Sendable {
    package private(set) var diagnostics: [Diagnostic] = []
    /// Per code, or per code and group: how many were met and how many are listed.
    private var tallies: [String: (met: Int, listed: Int)] = [:]
    private var order: [String] = []
    /// Diagnostics of kinds met after ``total`` kinds were known (a file can make every message a kind of its own).
    private var otherKinds = 0
    /// How many diagnostics of one kind are listed.
    package let perKind: Int
    /// How many diagnostics are listed in all; later ones are only counted.
    package let total: Int

    package init(perKind: Int = 5, total: Int = 1_000) {
        self.perKind = max(perKind, 0)
        self.total = max(total, 0)
    }

    /// Records a diagnostic of `code`; the message and location are made only when it is listed.
    ///
    /// `group` splits one code's cap: a mistyped value of each field (`group` the field) is listed up to the cap,
    /// so many bad `states` do not hide the one bad `rpages`.
    package mutating func add(
        _ code: Diagnostic.Code,
        _ severity: Diagnostic.Severity,
        _ message: @autoclosure () -> String,
        at location: @autoclosure () -> SourceLocation?,
        group: String? = nil
    ) {
        let kind = group.map { "\(code.rawValue), \($0)" } ?? code.rawValue
        var tally = tallies[kind] ?? (0, 0)
        if tally.met == 0 {
            guard order.count < total else {
                otherKinds += 1
                return
            }
            order.append(kind)
        }
        tally.met += 1
        if tally.listed < perKind, diagnostics.count < total {
            diagnostics.append(Diagnostic(severity, code, message(), at: location()))
            tally.listed += 1
        }
        tallies[kind] = tally
    }

    /// Records `diagnostic` under its own code.
    package mutating func add(_ diagnostic: Diagnostic) {
        add(diagnostic.code, diagnostic.severity, diagnostic.message, at: diagnostic.location)
    }

    /// The diagnostics, with one note per kind that was cut short.
    package func finished() -> [Diagnostic] {
        var out = diagnostics
        for kind in order {
            guard let tally = tallies[kind], tally.met > tally.listed else { continue }
            out.append(
                Diagnostic(.note, .moreNotListed, "\(tally.met - tally.listed) more of the same (\(kind)) not listed")
            )
        }
        if otherKinds > 0 {
            out.append(
                Diagnostic(.note, .moreKindsNotListed, "\(otherKinds) more diagnostics of other kinds not listed")
            )
        }
        return out
    }
}
