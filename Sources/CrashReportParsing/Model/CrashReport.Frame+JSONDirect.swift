import APMInspectCore

// A report has frames by the thousand: written through `encode(to:)` they were a tenth of a KSCrash scan's JSON
// output time (perf), and each window text became a `String` only to be copied out again.
extension CrashReport.Frame: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("address", address)
        object.write("column", column)
        write("file", fileText, into: &object)
        object.write("image", image)
        object.write("imageOffset", imageOffset)
        object.write("index", index)
        object.write("inlined", inlined)
        object.write("isAppFrame", isAppFrame)
        object.write("line", line)
        object.write("mangledSymbol", mangledSymbol)
        write("raw", rawLine, into: &object)
        write("symbol", symbolText, into: &object)
        object.write("symbolOffset", symbolOffset)
    }

    /// A window text straight from the report's bytes when they are plain ASCII (then exactly the `String` they
    /// read to); otherwise the text as ``FrameText/string(_:)`` reads it.
    private func write(_ name: StaticString, _ text: CrashReport.FrameText?, into object: inout JSONObjectWriter) {
        guard let text else { return }
        switch text {
        case .text(let string):
            object.write(name, string)
            return
        case .window(let start, let end), .json(let start, let end):
            let json: Bool
            if case .json = text { json = true } else { json = false }
            let written =
                source?.window(Int(start), Int(end)) { bytes in
                    guard JSONObjectWriter.isASCII(bytes, withoutBackslash: json) else { return false }
                    object.write(name, utf8: bytes)
                    return true
                } ?? false
            if !written { object.write(name, text.string(source)) }
        }
    }
}
