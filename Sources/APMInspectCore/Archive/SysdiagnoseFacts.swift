/// Device facts of a sysdiagnose archive, from its name and its metadata files, attached to every report in it.
public struct SysdiagnoseFacts: Sendable, Equatable, Codable {
    /// The archive (or folder) the facts come from.
    public var archive: String
    /// When the sysdiagnose was taken, from `sysdiagnose_YYYY.MM.DD_HH-MM-SS±ZZZZ_…`.
    public var date: AppleTimestamp?
    /// `iPhone-OS`, `iPhone_OS`, `macOS` … as the name writes it.
    public var platform: String?
    /// The device kind from the name (`iPhone`), or the model identifier from `remotectl_dumpstate.txt`.
    public var device: String?
    /// The device's model identifier (`iPhone14,2`), to name the device of reports that omit it.
    public var productType: String?
    /// The OS version of the device the sysdiagnose was taken on.
    public var osVersion: String?
    /// The OS build (`21E219`), which tells betas apart from releases.
    public var osBuild: String?

    package init(
        archive: String,
        date: AppleTimestamp? = nil,
        platform: String? = nil,
        device: String? = nil,
        productType: String? = nil,
        osVersion: String? = nil,
        osBuild: String? = nil
    ) {
        self.archive = archive
        self.date = date
        self.platform = platform
        self.device = device
        self.productType = productType
        self.osVersion = osVersion
        self.osBuild = osBuild
    }

    /// Reads what an archive or folder name says: `sysdiagnose_2023.05.24_13-29-15-0700_iPhone-OS_iPhone_19H349.tar.gz`.
    ///
    /// Returns nil when the name is not a sysdiagnose name.
    package init?(name archivePath: String) {
        let base = archivePath.split(separator: "/").last.map(String.init) ?? archivePath
        guard base.hasPrefix("sysdiagnose_") else { return nil }
        var stem = Substring(base.dropFirst("sysdiagnose_".count))
        for suffix in [".tar.gz", ".tgz", ".tar", ".gz"] where stem.hasSuffix(suffix) {
            stem = stem.dropLast(suffix.count)
            break
        }
        self.init(archive: archivePath)
        // 2023.05.24_13-29-15-0700 is 24 characters; the rest is _<platform>_<device>_<build>.
        guard stem.count >= 24 else { return }
        let stamp = stem.prefix(24)
        let datePart = stamp.prefix(10).replacingDots()
        let timePart = stamp.dropFirst(11).prefix(8).split(separator: "-").joined(separator: ":")
        let zone = stamp.suffix(5)
        date = AppleTimestamp("\(datePart) \(timePart) \(zone)")
        let rest = stem.dropFirst(24).split(separator: "_").map(String.init)
        if rest.count >= 3 {
            osBuild = rest[rest.count - 1]
            device = rest[rest.count - 2]
            platform = rest[0..<(rest.count - 2)].joined(separator: "_")
        }
    }

    /// Reads `ProductType => iPhone14,2`, `OSVersion => 16.1`, `BuildVersion => 20B82` from `remotectl_dumpstate.txt`.
    package mutating func readDumpstate(_ text: String) {
        for line in text.split(separator: "\n") {
            let trimmed = String(line).trimmingASCIIWhitespace()
            guard let arrow = trimmed.firstRange(of: " => ") else { continue }
            let key = trimmed[..<arrow.lowerBound]
            let value = String(trimmed[arrow.upperBound...]).trimmingASCIIWhitespace()
            switch key {
            case "ProductType": productType = productType ?? value
            case "OSVersion": osVersion = osVersion ?? value
            case "BuildVersion": osBuild = osBuild ?? value
            default: break
            }
        }
    }
}

extension Substring {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "-" : $0 })
    }
}
