/// What the worker says about one input; sent back to the supervisor as one JSON frame.
struct WorkerVerdict: Codable, Equatable {
    /// The `kind` the inspection gave the input (`crashReport`, `packetCapture` …): which parser read it.
    var kind: String
    /// The property that failed (`nondeterministic-parse`, `invalid-json-output`, `translate-round-trip`,
    /// `dropped-unknown-key`), nil when every check passed.
    var property: String?
    var message: String?
}
