import APMInspectCore

// A dense database has a sample per row and, when the charging state alternates, a session per row: written
// directly, they go straight to the output (or to a streamed read's spool) instead of through the encoder.
extension PowerLogReport.Battery.Sample: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("at", at)
        object.write("currentMilliamps", currentMilliamps)
        object.write("externalConnected", externalConnected)
        object.write("isCharging", isCharging)
        object.write("level", level)
        object.write("rawLevel", rawLevel)
        object.write("temperatureCelsius", temperatureCelsius)
        object.write("voltageMillivolts", voltageMillivolts)
    }
}

extension PowerLogReport.Battery.Session: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("end", end)
        object.write("endLevel", endLevel)
        object.write("kind", kind.rawValue)
        object.write("samples", samples)
        object.write("start", start)
        object.write("startLevel", startLevel)
    }
}
