import JetsamParsing

extension FleetEvent {
    /// One process a JetsamEvent killed, as the OOM table needs it: who (name and binary UUID), why, and at which
    /// limit.
    package struct KilledProcess: Sendable, Equatable {
        /// The executable name (the kernel truncates it; not a bundle id).
        package var name: String?
        /// The main binary's LC_UUID, 32 lower-case hex digits (JetsamEvents write it with dashes).
        package var uuid: String?
        /// The kill cause, verbatim (`per-process-limit`, `vm-pageshortage` …).
        package var reason: String
        /// The limit the process was killed at, in MB (`per-process-limit` kills with a known page size).
        package var limitMB: UInt64?

        package init(name: String?, uuid: String?, reason: String, limitMB: UInt64? = nil) {
            self.name = name
            self.uuid = uuid.flatMap(FleetEvent.binaryUUID)
            self.reason = reason
            self.limitMB = limitMB
        }

        /// True when the process was killed for crossing its own memory limit (`per-process-limit`, the hard one,
        /// or `highwater`, the soft one while memory was low): the app's OOM, not memory pressure on the device.
        package var atItsLimit: Bool { Self.limitReasons.contains(reason) }

        /// The kill causes that mean the process crossed its own limit.
        package static let limitReasons: Set<String> = ["per-process-limit", "highwater"]
    }

    /// A binary UUID as the fleet report compares them: 32 lower-case hex digits, dashes dropped; nil for text that
    /// is not a UUID.
    package static func binaryUUID(_ text: String) -> String? {
        var digits = ""
        digits.reserveCapacity(32)
        for scalar in text.unicodeScalars {
            if scalar == "-" { continue }
            guard scalar.isASCII, scalar.properties.isASCIIHexDigit, digits.count < 32 else { return nil }
            digits.unicodeScalars.append(scalar)
        }
        return digits.count == 32 ? digits.lowercased() : nil
    }
}
