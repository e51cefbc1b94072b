// The header of every `.ips` report: written directly so that the crash report holding it is written without the
// encoder.
extension IPSHeader: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order (`fields` always, as its wrapper is).
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("appVersion", appVersion)
        object.write("bugType", bugType)
        object.write("bugTypeName", bugTypeName)
        object.write("bundleID", bundleID)
        object.write("fields", keptFields)
        object.write("incidentID", incidentID)
        object.write("name", name)
        object.write("osVersion", osVersion)
        object.write("timestamp", timestamp)
    }
}
