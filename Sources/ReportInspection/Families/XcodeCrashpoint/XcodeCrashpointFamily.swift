import APMInspectCore

/// The metadata files of Xcode Organizer `.xccrashpoint` bundles (`Info.plist`, `PointInfo.json`,
/// `DistributionInfo.json`, a filter's `Info.plist`; kind `xccrashpointInfo`).
///
/// A walk of a folder of crash points meets them beside the crash logs: read as what they are, they are counted as
/// bundle metadata rather than as unknown reports. The crash logs under `Logs/` are crash reports, read by
/// ``CrashReportFamily``; the command's input layer attaches these facts to them (``XcodeCrashpointFacts``).
/// Recognised by where the file is (a `.plist` or `.json` inside a `.xccrashpoint` folder, not under `Logs/`) and by
/// what it holds (a property list or JSON); asked first, as the path test costs nothing.
public struct XcodeCrashpointFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "Xcode crash point metadata" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.xccrashpointInfo: "Xcode crash point metadata"] }

    /// The family; it has no options.
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard let place = XcodeCrashpointPlace(path: input.path), !place.isLog,
            input.path.hasSuffix(".plist") || input.path.hasSuffix(".json"),
            PropertyListFacts.format(of: input.bytes) != nil
        else { return nil }
        let relative = String(input.path.dropFirst(min(input.path.count, place.bundlePath.count + 1)))
        let read = PropertyListFacts.read(input.bytes, file: relative)
        var diagnostics: [Diagnostic] = []
        if read.format == "binaryPlist" {
            diagnostics.append(
                Diagnostic(.note, .crashpointBinaryPlist, "a binary property list: its facts were not read")
            )
        }
        if read.leftOut > 0 {
            diagnostics.append(
                Diagnostic(.note, .crashpointFactsLeftOut, "\(read.leftOut) more facts were left out")
            )
        }
        let info = XcodeCrashpointInfo(
            bundle: place.bundle,
            filter: place.filter,
            format: read.format,
            facts: read.facts,
            factsLeftOut: read.leftOut
        )
        return Inspection(
            file: input.path,
            kind: .xccrashpointInfo,
            diagnostics: diagnostics,
            report: .family(info),
            failure: nil
        )
    }
}
