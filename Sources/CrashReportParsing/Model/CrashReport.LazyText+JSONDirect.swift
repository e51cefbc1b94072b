import APMInspectCore

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
