import APMInspectCore

// Written directly with the report's top level.
extension CrashReport.Block: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("lines", lines)
        object.write("title", title)
    }
}
