import APMInspectCore

/// A metadata file of an Xcode Organizer `.xccrashpoint` bundle, with the facts it holds.
///
/// `Info.plist`, `PointInfo.json`, `DistributionInfo.json` and a filter's `Info.plist` are read as what they are, so
/// that `scan` and `report` do not count them as unknown reports. The bundle's crash logs are crash reports of their
/// own, carrying these facts in their envelope's `crashpoint`. The envelope carries it in the generic case
/// (``Inspection/Report/family(_:)``).
public struct XcodeCrashpointInfo: FamilyReport, Equatable, Codable {
    /// One fact: a key path (`CFBundleShortVersionString`, `filter.osVersion`) and its value as text.
    public struct Fact: Sendable, Equatable, Codable {
        /// The metadata file, relative to the bundle (`Info.plist`, `Filters/All/Info.plist`).
        public var file: String
        /// The metadata key, as written.
        public var key: String
        /// The value, as text.
        public var value: String

        package init(file: String, key: String, value: String) {
            self.file = file
            self.key = key
            self.value = value
        }
    }

    /// The bundle folder's name and, for a filter's file, the filter's.
    public var bundle: String
    /// The Organizer filter the crash point was exported under, when the bundle says.
    public var filter: String?
    /// `xmlPlist`, `binaryPlist` or `json`.
    public var format: String
    /// The scalar values of the file's top level and of the dictionaries right under it, in file order.
    public var facts: [Fact]
    /// Facts past the 64 a file keeps, counted, not kept.
    public var factsLeftOut: Int

    package init(bundle: String, filter: String?, format: String, facts: [Fact], factsLeftOut: Int) {
        self.bundle = bundle
        self.filter = filter
        self.format = format
        self.facts = facts
        self.factsLeftOut = factsLeftOut
    }
}
