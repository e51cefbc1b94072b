import APMInspectCore

/// A Sentry envelope holding one event, as `sentry-cli send-envelope` and the `/envelope/` endpoint read it.
///
/// One envelope per event: the envelope grammar has no separator between envelopes (a second header line would be
/// read as an item header), and an envelope carries at most one event item.
package struct SentryEnvelope: Sendable {
    /// The event's id (the envelope header repeats it).
    package var eventID: EventIdentity
    /// The event's JSON text, one line.
    package var payload: String

    /// An envelope of one event.
    package init(eventID: EventIdentity, payload: String) {
        self.eventID = eventID
        self.payload = payload
    }

    /// The envelope's bytes: header line, item header line with the payload's exact byte length, payload, newline.
    ///
    /// `sentAt` is RFC 3339 in UTC: Relay reads it to correct the sender's clock, so it is when the envelope is
    /// written, not when the crash happened.
    package func serialized(sentAt: String, toolVersion: String) -> String {
        var header = JSONObjectBuilder()
        header.add("event_id", string: eventID.hex)
        header.add("sent_at", string: sentAt)
        var sdk = JSONObjectBuilder()
        sdk.add("name", string: "apm-inspect")
        sdk.add("version", string: toolVersion)
        header.add("sdk", object: sdk)
        var item = JSONObjectBuilder()
        item.add("type", string: "event")
        item.add("length", integer: payload.utf8.count)
        item.add("content_type", string: "application/json")
        let encoder = SortedJSONEncoder()
        let headerText = (try? encoder.encode(header.value)) ?? "{}"
        let itemText = (try? encoder.encode(item.value)) ?? "{}"
        return headerText + "\n" + itemText + "\n" + payload + "\n"
    }
}
