import APMInspectCore

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
