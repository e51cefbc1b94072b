import APMInspectCore

extension FileKind {
    /// A metadata file of an Xcode Organizer `.xccrashpoint` bundle (`Info.plist`, `PointInfo.json` …): named as such,
    /// with its facts; the bundle's crash logs are crash reports.
    public static let xccrashpointInfo = FileKind(rawValue: "xccrashpointInfo")
}
