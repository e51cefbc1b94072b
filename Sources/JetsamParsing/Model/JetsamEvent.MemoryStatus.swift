import APMInspectCore

extension JetsamEvent {
    /// The system-wide memory counters (`memoryStatus`).
    ///
    /// Page counts are pages; zone figures are bytes.
    public struct MemoryStatus: Sendable, Equatable, Codable {
        package var pageSize: UInt64?
        package var compressorSize: UInt64?
        package var compressions: UInt64?
        package var decompressions: UInt64?
        package var uncompressed: UInt64?
        package var memoryPages: MemoryPages?
        package var zoneMapCap: UInt64?
        package var zoneMapSize: UInt64?
        package var largestZone: String?
        package var largestZoneSize: UInt64?
        package var unknownKeys: JSONValue?

        package init(
            pageSize: UInt64? = nil,
            compressorSize: UInt64? = nil,
            compressions: UInt64? = nil,
            decompressions: UInt64? = nil,
            uncompressed: UInt64? = nil,
            memoryPages: MemoryPages? = nil,
            zoneMapCap: UInt64? = nil,
            zoneMapSize: UInt64? = nil,
            largestZone: String? = nil,
            largestZoneSize: UInt64? = nil,
            unknownKeys: JSONValue? = nil
        ) {
            self.pageSize = pageSize
            self.compressorSize = compressorSize
            self.compressions = compressions
            self.decompressions = decompressions
            self.uncompressed = uncompressed
            self.memoryPages = memoryPages
            self.zoneMapCap = zoneMapCap
            self.zoneMapSize = zoneMapSize
            self.largestZone = largestZone
            self.largestZoneSize = largestZoneSize
            self.unknownKeys = unknownKeys
        }
    }

    /// The kernel's page counts (`memoryStatus.memoryPages`).
    ///
    /// `fileBacked`, `anonymous` and `purgeable` overlap the rest.
    public struct MemoryPages: Sendable, Equatable, Codable {
        package var active: UInt64?
        package var throttled: UInt64?
        package var fileBacked: UInt64?
        package var wired: UInt64?
        package var anonymous: UInt64?
        package var purgeable: UInt64?
        package var inactive: UInt64?
        package var free: UInt64?
        package var speculative: UInt64?
        package var unknownKeys: JSONValue?

        package init(
            active: UInt64? = nil,
            throttled: UInt64? = nil,
            fileBacked: UInt64? = nil,
            wired: UInt64? = nil,
            anonymous: UInt64? = nil,
            purgeable: UInt64? = nil,
            inactive: UInt64? = nil,
            free: UInt64? = nil,
            speculative: UInt64? = nil,
            unknownKeys: JSONValue? = nil
        ) {
            self.active = active
            self.throttled = throttled
            self.fileBacked = fileBacked
            self.wired = wired
            self.anonymous = anonymous
            self.purgeable = purgeable
            self.inactive = inactive
            self.free = free
            self.speculative = speculative
            self.unknownKeys = unknownKeys
        }
    }

    /// Installed memory: the estimate from the report's page counts and the catalog's nominal value.
    public struct RAMEstimate: Sendable, Equatable, Codable {
        /// (active + inactive + free + speculative + wired + throttled + compressorSize) × pageSize, in MiB.
        public var estimatedMB: Double?
        /// The catalog's RAM for the device, resolved with the estimate when it depends on the storage size.
        public var nominalMB: Int?
        /// The catalog's options when the device ships with several RAM sizes.
        public var nominalOptionsMB: [Int]?
        /// True when the nominal value was picked among several options using the estimate.
        public var resolvedByEstimate: Bool

        package init(
            estimatedMB: Double? = nil,
            nominalMB: Int? = nil,
            nominalOptionsMB: [Int]? = nil,
            resolvedByEstimate: Bool = false
        ) {
            self.estimatedMB = estimatedMB
            self.nominalMB = nominalMB
            self.nominalOptionsMB = nominalOptionsMB
            self.resolvedByEstimate = resolvedByEstimate
        }
    }
}
