/// What the worker says about one input; sent back to the supervisor as one JSON frame.
struct WorkerVerdict: Codable, Equatable {
    /// The `kind` the inspection gave the input (`crashReport`, `packetCapture` …): which parser read it.
    var kind: String
    /// The property that failed (`nondeterministic-parse`, `invalid-json-output`, `translate-round-trip`,
    /// `dropped-unknown-key`), nil when every check passed.
    var property: String?
    var message: String?
    /// The symbol readers that ran on the input (`mach-o`, `dwarf-info`, `dwarf-line`, `swift-demangler`,
    /// `cxx-demangler`); nil when none did.
    var readers: [String]?

    init(kind: String, property: String? = nil, message: String? = nil, readers: [String]? = nil) {
        self.kind = kind
        self.property = property
        self.message = message
        self.readers = readers
    }
}
