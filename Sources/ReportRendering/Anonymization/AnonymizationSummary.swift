import APMInspectCore
import Foundation
import ReportInspection

/// What `anonymize` did, per file and in total: counts of replaced values by category, never the values.
struct AnonymizationSummary: Encodable {
    /// One input file or archive member.
    struct File: Encodable {
        var input: String
        var output: String?
        var kind: String?
        /// `written`, `skipped` (not a report this command copies, met in a folder or an archive) or `failed`.
        var status: String
        var replaced: [String: Int]
        var diagnostics: [Diagnostic]
    }

    var output: String
    /// True when `--salt` was given: the stand-ins are then the same in every run with that salt.
    var saltGiven: Bool
    var files: [File] = []
    /// Per category, how many different values were replaced in the whole run.
    var distinct: [AnonymizedCategory: Int] = [:]

    init(output: String, saltGiven: Bool) {
        self.output = output
        self.saltGiven = saltGiven
    }

    var failures: Int { files.count { $0.status == "failed" } }

    mutating func record(_ input: String, result: AnonymizedReport, target: String?, skipped: Bool) {
        files.append(
            File(
                input: input,
                output: target,
                kind: result.kind.rawValue,
                status: target != nil ? "written" : skipped ? "skipped" : "failed",
                replaced: Dictionary(uniqueKeysWithValues: result.counts.map { ($0.key.rawValue, $0.value) }),
                diagnostics: result.diagnostics
            )
        )
    }

    mutating func failed(_ input: String, message: String) {
        files.append(File(input: input, output: nil, kind: nil, status: "failed", replaced: [:], diagnostics: []))
        if let last = files.indices.last, !message.isEmpty {
            files[last].diagnostics = [Diagnostic(.error, .anonymizeUnreadable, message)]
        }
    }

    /// The totals: per category, the replacements in every file and the different values among them.
    var totals: [String: [String: Int]] {
        var totals: [String: [String: Int]] = [:]
        for file in files {
            for (category, count) in file.replaced {
                totals[category, default: ["occurrences": 0, "distinct": 0]]["occurrences", default: 0] += count
            }
        }
        for (category, count) in distinct where count > 0 {
            totals[category.rawValue, default: ["occurrences": 0]]["distinct"] = count
        }
        return totals
    }

    private enum CodingKeys: String, CodingKey {
        case output, saltGiven, files, totals, written, skipped, failed
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(saltGiven, forKey: .saltGiven)
        try container.encode(files, forKey: .files)
        try container.encode(totals, forKey: .totals)
        try container.encode(files.count { $0.status == "written" }, forKey: .written)
        try container.encode(files.count { $0.status == "skipped" }, forKey: .skipped)
        try container.encode(failures, forKey: .failed)
    }

    /// `--format json`: one object, keys sorted.
    func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The text summary: a line per file, then the totals; every path escaped for the terminal.
    func text() -> String {
        var out = ""
        for file in files {
            let input = TerminalText.escaped(file.input)
            let counts = file.replaced.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            switch file.status {
            case "written":
                out += "\(input) -> \(TerminalText.escaped(file.output ?? ""))"
                out += counts.isEmpty ? ": nothing to replace\n" : ": " + counts.joined(separator: ", ") + "\n"
            default:
                let reason = file.diagnostics.first.map { TerminalText.escaped($0.message) } ?? ""
                out += "\(input): \(file.status): \(reason)\n"
            }
        }
        let written = files.count { $0.status == "written" }
        let skipped = files.count { $0.status == "skipped" }
        out +=
            "Anonymized \(written) file(s) into \(TerminalText.escaped(output)); \(skipped) skipped, \(failures) failed.\n"
        let totals = self.totals.sorted { $0.key < $1.key }
        if !totals.isEmpty {
            out += "Replaced: "
            out +=
                totals.map { "\($0.key) \($0.value["occurrences"] ?? 0) (\($0.value["distinct"] ?? 0) distinct)" }
                .joined(separator: ", ") + "\n"
        }
        out += saltGiven ? "Stand-ins follow from --salt.\n" : "Stand-ins follow from a random salt, not kept.\n"
        return out
    }
}
