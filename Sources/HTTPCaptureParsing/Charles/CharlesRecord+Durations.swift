extension CharlesRecord {
    /// The phase durations a session gives, each with the name the JSON export (`durations` members) and the XML
    /// export (attributes) write it under: both readers fill the record from this one table, in this order.
    static let durationFields:
        [(field: WritableKeyPath<CharlesRecord, Double?> & Sendable, json: String, xml: String)] = [
            (\.dns, "dns", "dnsDuration"),
            (\.connect, "connect", "connectDuration"),
            (\.ssl, "ssl", "sslDuration"),
            (\.requestDuration, "request", "requestDuration"),
            (\.latency, "latency", "latency"),
            (\.responseDuration, "response", "responseDuration"),
            (\.total, "total", "duration"),
        ]
}
