// Written with every located diagnostic and failure of an envelope.
extension SourceLocation: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("byteOffset", byteOffset)
        object.write("column", column)
        object.write("keyPath", keyPath)
        object.write("lastByteOffset", lastByteOffset)
        object.write("line", line)
    }
}
