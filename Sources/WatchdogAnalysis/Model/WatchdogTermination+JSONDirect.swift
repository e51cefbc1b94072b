import APMInspectCore

// A watchdog report's envelope is written directly: through the encoder this object alone cost about a tenth of
// writing the whole report (its members and its parts' sorted one by one).
extension WatchdogTermination: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("allowanceKind", allowanceKind)
        object.write("allowanceSeconds", allowanceSeconds)
        object.write("bundleId", bundleId)
        object.write("bundleInstanceUUID", bundleInstanceUUID)
        object.write("code", code)
        object.write("codeName", codeName)
        object.write("cpu", cpu)
        object.write("diagnosis", diagnosis)
        object.write("domain", domain)
        object.write("domainName", domainName)
        object.write("elapsedSeconds", elapsedSeconds)
        object.write("event", event)
        object.write("flags", flags)
        object.write("kind", kind.rawValue)
        object.write("maxTerminationResistance", maxTerminationResistance)
        object.write("meaning", meaning)
        object.write("namespace", namespace)
        object.write("pid", pid)
        object.write("processState", processState)
        object.write("processVisibility", processVisibility)
        object.write("raw", raw)
        object.write("reportType", reportType)
        object.write("thermal", thermal)
        object.write("watchdogVisibility", watchdogVisibility)
    }
}

extension WatchdogTermination.CPUStatistics: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("appPercent", appPercent)
        object.write("appSeconds", appSeconds)
        object.write("systemSeconds", systemSeconds)
        object.write("totalPercent", totalPercent)
        object.write("totalSeconds", totalSeconds)
        object.write("userSeconds", userSeconds)
    }
}

extension WatchdogTermination.Thermal: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("level", level)
        object.write("state", state)
    }
}

extension WatchdogTermination.Diagnosis: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("confidence", confidence.rawValue)
        object.write("evidenceFrames", evidenceFrames)
        object.write("reasons", reasons)
        object.write("summary", summary)
        object.write("thread", thread)
        object.write("verdict", verdict.rawValue)
    }
}
