/// Where a file sits in an Xcode Organizer `.xccrashpoint` bundle, from its path alone.
///
/// Xcode writes a crash point as a folder `Name.xccrashpoint/` with an `Info.plist`, crash logs under
/// `Filters/<filter>/Logs/` (earlier versions: `DistributionInfos/<filter>/Logs/`, or `Logs/` at the top), each
/// filter with its own `Info.plist`, and in some versions `PointInfo.json` and `DistributionInfo.json`.
package struct XcodeCrashpointPlace: Sendable, Equatable {
    /// The path of the bundle folder, as the file's path spells it.
    package var bundlePath: String
    /// The bundle folder's name (`Name.xccrashpoint`).
    package var bundle: String
    /// The filter folder's path and name, when the file is under `Filters/<filter>/` or `DistributionInfos/<filter>/`.
    package var filterPath: String?
    package var filter: String?
    /// True for a file under a `Logs` folder: a crash log, not the bundle's metadata.
    package var isLog: Bool

    /// The bundle metadata files this build reads for facts, relative to the bundle and to a filter.
    static let bundleFiles = ["Info.plist", "PointInfo.json", "DistributionInfo.json"]
    static let filterFiles = ["Info.plist", "DistributionInfo.json"]

    /// The place of `path`, or nil when no folder on it ends in `.xccrashpoint`.
    package init?(path: String) {
        guard path.contains(".xccrashpoint/") else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        // The innermost bundle: a bundle inside a bundle is unusual, and the nearest one describes the file.
        guard let index = parts.dropLast().lastIndex(where: { $0.hasSuffix(".xccrashpoint") }) else { return nil }
        bundle = String(parts[index])
        bundlePath = parts[...index].joined(separator: "/")
        let inside = parts[(index + 1)...]
        isLog = inside.dropLast().contains("Logs")
        if inside.count >= 3, let first = inside.first, first == "Filters" || first == "DistributionInfos" {
            let name = inside[inside.startIndex + 1]
            filter = String(name)
            filterPath = bundlePath + "/" + first + "/" + name
        }
    }

    /// The metadata files that describe a log at this place: the bundle's, then its filter's (absolute or relative
    /// as the file's path is).
    var metadataPaths: [String] {
        Self.bundleFiles.map { bundlePath + "/" + $0 }
            + (filterPath.map { path in Self.filterFiles.map { path + "/" + $0 } } ?? [])
    }
}
