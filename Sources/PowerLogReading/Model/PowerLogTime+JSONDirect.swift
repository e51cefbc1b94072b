import APMInspectCore

// Every battery sample carries one time and every session two: a million-row JSON read writes millions of them,
// where the encoder's member keeping and sorting cost most of `energy --format json`'s time.
extension PowerLogTime: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("clockOffset", clockOffset)
        object.write("raw", raw)
        object.write("wallClock", wallClock)
    }
}
