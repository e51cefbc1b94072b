import APMInspectCore

// The codes of the MetricKit payload reader. Each doc comment says what the code means and ends with an `Example:`
// line.
extension Diagnostic.Code {
    /// A value has a JSON type its place in a payload does not take (a payload, diagnostic, call stack or frame
    /// that is not an object, a list that is not an array, a figure that is not a number); it was skipped or kept
    /// among the unknown keys, so what it held is not in the report.
    /// Example: callStacks is not an array
    package static let metricKitWrongType = Self("metrickit.wrong-type")
    /// A call-stack tree has no `callStacks`: it holds no frames.
    /// Example: the call-stack tree has no callStacks
    package static let metricKitTreeWithoutStacks = Self("metrickit.tree-without-stacks")
    /// A crash's call stack branches; its threads follow the heaviest branch, while the tree keeps every frame.
    /// Example: a crash call stack branches: its threads follow the heaviest branch (the tree keeps every frame)
    package static let metricKitCrashStackBranches = Self("metrickit.crash-stack-branches")
    /// `offsetIntoBinaryTextSegment` holds load addresses, as iOS 14.0 wrote it: offsets were computed from them.
    /// Example: offsetIntoBinaryTextSegment holds the load address of 2 binaries (as iOS 14.0 wrote it): offsets were taken as address minus that value
    package static let metricKitLoadAddressAsOffset = Self("metrickit.load-address-as-offset")
    /// More frames than a file may hold: the rest of the call stacks were left out.
    /// Example: more than 2000000 frames: the rest of the call stacks were left out
    package static let metricKitFramesTruncated = Self("metrickit.frames-truncated")
    /// More metric figures than a file may hold: the rest were left out.
    /// Example: more than 200000 metric figures: the rest were left out
    package static let metricKitMetricsTruncated = Self("metrickit.metrics-truncated")
    /// The file ends inside the JSON: what comes before was read, and the report may be missing what followed.
    /// Example: the file ends inside the JSON: what comes before was read
    package static let metricKitTruncatedJSON = Self("metrickit.truncated-json")
    /// More findings than a file lists: the rest were only counted.
    /// Example: 12 more findings of the same kinds were not listed
    package static let metricKitFindingsNotListed = Self("metrickit.findings-not-listed")
}
