import HTTPCaptureParsing
import ReportInspection

/// The HTTP family with a run's options (`--show-secrets`, the text summary), for the members of an archive given
/// to `http`: the only family asked, so every other member is left out.
struct ArchiveCaptureFamily: ReportFamily {
    let options: HTTPCaptureOptions
    let summaryOnly: Bool

    var name: String { "HTTP capture" }

    func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard let kind = input.httpKind else { return nil }
        return HTTPCaptureFamily.inspect(
            bytes: input.bytes,
            kind: kind,
            path: input.path,
            options: options,
            summaryOnly: summaryOnly
        )
    }
}
