/// What kind of value `anonymize` replaced: the keys of its summary, counted per file and never shown.
package enum AnonymizedCategory: String, CaseIterable, Sendable, Codable, Comparable {
    /// `crashReporterKey`, `CrashReporter Key:`, `Anonymous UUID:`, `Beta Identifier:` and
    /// `deviceIdentifierForVendor` (a 309 report's `storeInfo`): they name one device.
    case crashReporterKey
    /// `incident_id`, `incident`, `Incident Identifier:`: they name one report, so a shared copy can be matched.
    case incidentIdentifier
    /// `Device Name:` and `deviceName` / `device_name` values: often the owner's name ("Anna's iPhone").
    case deviceName
    /// `Serial Number:` and `serialNumber` / `serial_number` values.
    case serialNumber
    /// The `NAME` of `/Users/NAME/…` and `/home/NAME/…`.
    case userName
    /// The UUID after `Containers/Data/Application/`, `containers/Bundle/Application/`, `Shared/AppGroup/` and
    /// `CoreSimulator/Devices/`: one install of an app on one device.
    case containerUUID
    /// IPv4 and IPv6 addresses in HTTP captures (loopback and unspecified addresses are kept).
    case ipAddress
    /// `Cookie`, `Set-Cookie`, `Authorization` and `Proxy-Authorization` header values and cookie values of HTTP
    /// captures.
    case httpSecret

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
