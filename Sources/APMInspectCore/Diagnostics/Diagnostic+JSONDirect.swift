// Every envelope carries its diagnostics: written directly, the envelope's own members need no encoder at all.
extension Diagnostic: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("code", code.rawValue)
        object.write("location", location)
        object.write("message", message)
        object.write("severity", severity.rawValue)
    }
}
