import APMInspectCore

// The crashed thread's registers, a few dozen per report, written without sorting their members each time.
extension CrashReport.Register: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("description", description)
        object.write("name", name)
        object.write("value", value)
    }
}
