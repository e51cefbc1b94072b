import APMInspectCore

/// Where a streamed read (``PowerLogReader/readStreamed(path:spool:)``) puts the battery samples and sessions: each
/// encoded as it is read, into a temporary file without a name, for the document to write once the rest of the
/// report (and the diagnostics that come before it) is known.
///
/// The battery table is the one that grows with the time a device logged (a row every 20 s to 10 minutes, and a
/// session per row when the charging state alternates): held in the model, a million rows took 223 MB and most of
/// the JSON output's time.
package final class PowerLogBatterySpool {
    /// `battery.samples`, in time order.
    package let samples: JSONArraySpool
    /// `battery.sessions`, in time order.
    package let sessions: JSONArraySpool

    /// Spools for arrays written by `encoder` at `depth` in their document (the `samples` and `sessions` members of
    /// the battery object).
    ///
    /// - Throws: ``InputError`` when a temporary file cannot be made.
    package init(encoder: SortedJSONEncoder, depth: Int, directory: String? = nil) throws(InputError) {
        samples = try JSONArraySpool(encoder: encoder, depth: depth, directory: directory)
        sessions = try JSONArraySpool(encoder: encoder, depth: depth, directory: directory)
    }

    /// False once a write failed (a full disk): the read is then done again without the spool.
    package var isUsable: Bool { samples.isUsable && sessions.isUsable }

    /// Forgets every element, for a table read again in time order.
    func removeAll() {
        samples.removeAll()
        sessions.removeAll()
    }
}
