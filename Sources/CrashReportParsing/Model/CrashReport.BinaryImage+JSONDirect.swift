import APMInspectCore

// A report lists hundreds of binary images: written through `encode(to:)` each cost a sort of its members and a
// `String` for every path kept as a window on the report's bytes.
extension CrashReport.BinaryImage: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("arch", arch)
        object.write("base", base)
        object.write("bundleId", bundleId)
        object.write("bundleVersion", bundleVersion)
        object.write("end", end)
        object.write("isApp", isApp)
        object.write("name", name)
        if let pathText { pathText.write("path", into: &object) }
        object.write("source", source)
        object.write("uuid", uuid)
        object.write("version", version)
    }
}
