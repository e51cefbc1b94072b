import APMInspectCore

// A report lists hundreds of binary images: written through `encode(to:)` each cost a sort of its members and a
// `String` for every path kept as a window on the report's bytes.
extension CrashReport.BinaryImage: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    public func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("arch", arch)
        object.write("base", base)
        object.write("bundleId", bundleId)
        object.write("end", end)
        object.write("isApp", isApp)
        object.write("name", name)
        if let pathText { pathText.write("path", into: &object) }
        object.write("source", source)
        object.write("uuid", uuid)
        object.write("version", version)
    }
}

extension CrashReport.LazyText {
    /// Writes the text, straight from the report's bytes where it is a window on plain ASCII (then exactly the
    /// `String` it reads to).
    func write(_ name: StaticString, into object: inout JSONObjectWriter) {
        let written: Bool
        switch self {
        case .text(let text):
            object.write(name, text)
            return
        case .shared(let shared, let start, let end):
            written = shared.window(start, end) { bytes in
                guard JSONObjectWriter.isASCII(bytes, withoutBackslash: false) else { return false }
                object.write(name, utf8: bytes)
                return true
            }
        case .json(let shared, let start, let end):
            written = shared.window(start, end) { bytes in
                guard JSONObjectWriter.isASCII(bytes, withoutBackslash: true) else { return false }
                object.write(name, utf8: bytes)
                return true
            }
        case .uuid:
            written = false
        }
        if !written { object.write(name, string) }
    }
}
