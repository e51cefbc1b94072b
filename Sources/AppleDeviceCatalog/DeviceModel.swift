/// One Apple device model: its identifier, marketing name and installed RAM.
///
/// Values come from `devices.tsv` through ``DeviceCatalog/all``; look one up with
/// ``DeviceCatalog/model(for:)``.
package struct DeviceModel: Sendable, Equatable, Hashable, Codable {
    /// The product line a model identifier belongs to.
    ///
    /// The raw value is the spelling used in JSON output.
    package enum Family: String, Sendable, Equatable, Hashable, Codable {
        /// An iPhone (`iPhone…`).
        case iPhone
        /// An iPad of any kind (`iPad…`).
        case iPad
        /// An iPod touch (`iPod…`).
        case iPod
        /// An Apple Watch (`Watch…`).
        case watch
        /// The iOS Simulator on a Mac (`i386`, `x86_64`, `arm64`).
        case simulator
    }

    /// The model identifier as a report writes it, for example `"iPhone8,2"`.
    package var identifier: String

    /// The marketing name, for example `"iPhone 6s Plus"`.
    package var name: String

    /// The product line.
    package var family: Family

    /// The installed RAM in MiB.
    ///
    /// Holds two or more ascending values when the same identifier ships with storage-dependent RAM
    /// (for example `[8192, 16384]` for an M2 or M4 iPad Pro), and is empty when the RAM is unknown
    /// (simulators, recent Apple Watch models).
    package var ramOptionsMB: [Int]

    /// Where the name and the RAM come from, as `name:CODE;ram:CODE` (codes in docs/device-catalog.md).
    package var source: String

    /// Creates a device model.
    ///
    /// - Parameters:
    ///   - identifier: The model identifier, for example `"iPhone8,2"`.
    ///   - name: The marketing name.
    ///   - family: The product line.
    ///   - ramOptionsMB: The installed RAM in MiB; several values when it depends on storage, none when unknown.
    ///   - source: The provenance codes, `name:CODE;ram:CODE`.
    package init(identifier: String, name: String, family: Family, ramOptionsMB: [Int], source: String) {
        self.identifier = identifier
        self.name = name
        self.family = family
        self.ramOptionsMB = ramOptionsMB
        self.source = source
    }

    /// The RAM in MiB when it is unambiguous, else nil.
    ///
    /// Nil both when the RAM is unknown and when the identifier has several RAM options; use
    /// ``DeviceCatalog/resolveRAM(for:estimatedMB:)`` to pick among options.
    package var ramMB: Int? {
        ramOptionsMB.count == 1 ? ramOptionsMB.first : nil
    }
}
