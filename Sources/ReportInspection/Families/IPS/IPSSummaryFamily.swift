import APMInspectCore

/// Any other `.ips` file with a bug_type: its type named and classified, its body described, not modelled.
///
/// Last of the standard families, so every family that models a bug_type has had its turn.
public struct IPSSummaryFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "other .ips" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> {
        [.panic: "Panic", .stackshot: "Stackshot", .otherIPS: "IPS report"]
    }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard input.isJSONOrIPS, let bugType = input.container.bugType else { return nil }
        let container = input.container
        let kind: FileKind
        let note: String
        switch bugType.family {
        case .panic:
            kind = .panic
            note = "a kernel panic or force reset report, not an app crash"
        case .stackshot:
            kind = .stackshot
            note = "a stackshot: a snapshot of every thread, not a crash"
        default:
            kind = .otherIPS
            note = "bug_type \(bugType.code) (\(bugType.name)) has no model in this build"
        }
        return Inspection(
            file: input.path,
            kind: kind,
            diagnostics: container.diagnostics + Self.bodyDamage(container),
            report: .ips(
                IPSSummary(
                    bugType: bugType.code,
                    bugTypeName: bugType.name,
                    family: bugType.family.rawValue,
                    header: container.header,
                    bodyKind: container.bodyKind.rawValue,
                    bodyBytes: container.body.count,
                    note: note
                )
            ),
            failure: nil
        )
    }

    /// What parsing the JSON body repaired, when it is cut short: the body is not modelled, but a summary that
    /// reads as whole for a truncated copy would hide that the evidence is incomplete.
    ///
    /// Only a truncated body is reported; a whole body with lenient repairs is left to a family that models it.
    static func bodyDamage(_ container: IPSContainer) -> [Diagnostic] {
        guard container.bodyKind == .json else { return [] }
        do {
            let document = try container.parseJSONBody()
            return document.isTruncated ? document.diagnostics : []
        } catch {
            return [
                Diagnostic(
                    .warning,
                    .input(error.code),
                    "the JSON body is not readable: \(error.message)",
                    at: error.location
                )
            ]
        }
    }
}
