import Foundation

/// One pattern of values `anonymize` replaces in a report's text: the first capture group is the value.
///
/// Every quantifier is bounded and no group repeats inside another, so a hostile line (megabytes without a break)
/// costs time linear in its length.
struct AnonymizationRule {
    var category: AnonymizedCategory
    var expression: NSRegularExpression

    /// The rules every text or JSON report goes through: identifiers of the device, the user and the report.
    static func reportRules() -> [AnonymizationRule] {
        let slash = #"(?:/|\\/)"#
        let uuid = "([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"
        let rules: [AnonymizationRule?] = [
            make(
                .crashReporterKey,
                #""(?:crashReporterKey|beta_identifier|deviceIdentifierForVendor)"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}"([0-9A-Za-z-]{1,128})""#
            ),
            make(
                .crashReporterKey,
                #"(?m)^[ \t]{0,64}(?:CrashReporter Key|Anonymous UUID|Beta Identifier):[ \t]{0,64}([0-9A-Za-z-]{1,128})"#
            ),
            make(
                .incidentIdentifier,
                #""(?:incident_id|incident)"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}"([0-9A-Za-z-]{1,128})""#
            ),
            make(.incidentIdentifier, #"(?m)^[ \t]{0,64}Incident Identifier:[ \t]{0,64}([0-9A-Za-z-]{1,128})"#),
            make(
                .deviceName,
                #""(?:deviceName|device_name|DeviceName)"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}"([^"\\\r\n]{1,256})""#
            ),
            make(.deviceName, #"(?m)^[ \t]{0,64}Device Name:[ \t]{0,64}([^\r\n]{1,256})"#),
            make(
                .serialNumber,
                #""(?:serialNumber|serial_number|SerialNumber)"[ \t\r\n]{0,64}:[ \t\r\n]{0,64}"([0-9A-Za-z]{1,64})""#
            ),
            make(.serialNumber, #"(?m)^[ \t]{0,64}Serial Number:[ \t]{0,64}([0-9A-Za-z]{1,64})"#),
            make(.userName, slash + "(?:Users|home)" + slash + #"([^/\\"'\s<>:;,()\[\]{}]{1,128})"#),
            make(
                .containerUUID,
                "(?i:containers" + slash + "(?:data|bundle|shared)" + slash
                    + "(?:application|pluginkitplugin|appgroup)" + slash + ")" + uuid
            ),
            make(.containerUUID, "(?i:coresimulator" + slash + "devices" + slash + ")" + uuid),
        ]
        return rules.compactMap { $0 }
    }

    /// The address rules of HTTP captures: IPv4, and IPv6 candidates (checked with `inet_pton` before replacing).
    static func addressRules() -> [AnonymizationRule] {
        let octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
        let rules: [AnonymizationRule?] = [
            make(.ipAddress, "(?<![0-9A-Za-z.])(" + octet + "(?:\\." + octet + "){3})(?![0-9A-Za-z]|\\.[0-9])"),
            make(.ipAddress, "(?<![0-9A-Za-z.:])([0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7})(?![0-9A-Za-z:.])"),
        ]
        return rules.compactMap { $0 }
    }

    /// nil for a pattern that does not compile: they are constants of this file, so that is a programming error
    /// the tests catch (a category then goes unreplaced), never a trap.
    private static func make(_ category: AnonymizedCategory, _ pattern: String) -> AnonymizationRule? {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        return AnonymizationRule(category: category, expression: expression)
    }
}
