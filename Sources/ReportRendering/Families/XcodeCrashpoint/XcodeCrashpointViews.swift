import APMInspectCore
import ReportInspection

/// A metadata file of an `.xccrashpoint` bundle: its facts, listed.
///
/// It is no report of its own (the bundle's crash logs are), so it adds nothing to `scan`'s findings or the fleet
/// report beyond its kind.
struct XcodeCrashpointViews: ReportViews {
    /// Facts listed before "… more".
    static let factLimit = 40

    func text(_ info: XcodeCrashpointInfo, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        var out = StyledText("Xcode crash point metadata  \(TerminalText.escaped(inspection.file))\n")
        var fields: [(String, String)] = [("Bundle", info.bundle)]
        if let filter = info.filter { fields.append(("Filter", filter)) }
        fields.append(("Format", info.format))
        out += InspectionRenderer.keyValues(fields)
        guard !info.facts.isEmpty else { return out }
        out += "\n"
        out += InspectionRenderer.keyValues(
            info.facts.prefix(Self.factLimit).map { (TerminalText.escaped($0.key), $0.value) }
        )
        let more = info.facts.count - min(info.facts.count, Self.factLimit) + info.factsLeftOut
        if more > 0 { out += "  … \(more) more facts\n" }
        return out
    }

    var noun: String {
        "an Xcode crash point's metadata file"
    }
}

/// On the generic path: the registry finds these views from the model.
extension XcodeCrashpointInfo: ViewedFamilyReport {
    static var views: XcodeCrashpointViews { XcodeCrashpointViews() }
}
