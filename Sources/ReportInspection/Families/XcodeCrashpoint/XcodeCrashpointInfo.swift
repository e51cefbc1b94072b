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

/// What a crash log inside an `.xccrashpoint` bundle carries from it: the bundle, the filter, and the facts of the
/// bundle's and the filter's metadata files (the envelope's `crashpoint`).
public struct XcodeCrashpointFacts: Sendable, Equatable, Codable {
    /// The `.xccrashpoint` bundle's name.
    public var bundle: String
    /// The filter's name, for a filter's `Info.plist`; nil for the bundle's own files.
    public var filter: String?
    /// The metadata, in file order.
    public var facts: [XcodeCrashpointInfo.Fact]

    package init(bundle: String, filter: String?, facts: [XcodeCrashpointInfo.Fact]) {
        self.bundle = bundle
        self.filter = filter
        self.facts = facts
    }

    /// The facts of the log at `path`; nil when the path is not a log inside a bundle.
    ///
    /// Its place comes from the path, the facts from the metadata files beside it (each at most 64 KiB; a missing or
    /// unreadable one adds nothing).
    package static func of(logAt path: String) -> XcodeCrashpointFacts? {
        guard let place = XcodeCrashpointPlace(path: path), place.isLog else { return nil }
        var facts: [XcodeCrashpointInfo.Fact] = []
        for file in place.metadataPaths {
            guard FileReading.isRegularFile(atPath: file),
                let bytes = try? FileReading.contents(atPath: file, maxBytes: PropertyListFacts.maxBytes)
            else { continue }
            let relative = String(file.dropFirst(place.bundlePath.count + 1))
            let read = PropertyListFacts.read(bytes, file: relative)
            facts += read.facts.prefix(PropertyListFacts.maxFacts - facts.count)
        }
        return XcodeCrashpointFacts(bundle: place.bundle, filter: place.filter, facts: facts)
    }
}
