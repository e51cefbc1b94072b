import APMInspectCore

// The codes of the App Store Connect response reader. Each doc comment says what the code means and ends with an
// `Example:` line. Its call-stack trees are read by the MetricKit reader, with the `metrickit.` codes.
extension Diagnostic.Code {
    /// A key or value of another reasonable shape than the documented one (`bundleIdentifier` for `bundleId`, one
    /// call-stack tree where a list is documented, a signature without its `attributes` wrapper): read as meant.
    /// Example: callStackTree is one object, not an array of trees: read as a list of one
    package static let appStoreConnectKeyVariant = Self("appstoreconnect.key-variant")
    /// A value has a JSON type its place does not take (a log that is not an object, a list that is not an array);
    /// it was skipped or kept among the unknown keys.
    /// Example: diagnosticLogs is not an array
    package static let appStoreConnectWrongType = Self("appstoreconnect.wrong-type")
    /// A log's `event` or a signature's `diagnosticType` names no diagnostic kind this reader knows: it is kept as
    /// written and counted under no kind.
    /// Example: event "Thermal" is not a kind this reader knows (hang, disk writes, launch …): kept as written
    package static let appStoreConnectUnknownEvent = Self("appstoreconnect.unknown-event")
    /// More products, logs or signatures than a file may hold: the rest were left out.
    /// Example: more than 100000 logs: the rest were left out
    package static let appStoreConnectTruncated = Self("appstoreconnect.truncated")
}
