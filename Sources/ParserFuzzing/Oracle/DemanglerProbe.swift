import Symbolication

/// Symbol names through both demanglers in both styles, as `atos`, `symbolicate` and `scan` print them: each
/// answer must be a non-empty name no longer than the demangler's cut; a name that takes seconds or gigabytes is
/// the worker's timeout or memory limit.
///
/// Everything decided ends up in ``transcript``, so two probes of the same names must be equal.
struct DemanglerProbe {
    /// Bytes of names demangled per input: a bound on the work one input can ask for.
    static let maxNameBytes = 1 << 16
    /// The longest answer: the cut plus its `…` marker.
    static let maxDemangledBytes = Demangler.maxDemangledLength + "…".utf8.count

    private(set) var transcript: [String] = []
    private(set) var problems: [MachOProbe.Problem] = []
    /// `swift-demangler` and `cxx-demangler` when a name of that mangling was handed over.
    private(set) var readers: Set<String> = []

    init(_ names: some Sequence<String>) {
        var spent = 0
        for name in names where Demangler.isMangled(name) {
            spent += name.utf8.count
            if spent > Self.maxNameBytes { break }
            readers.insert(Self.isCxx(name) ? "cxx-demangler" : "swift-demangler")
            for style in [Demangler.Style.simplified, .full] {
                let answer = Demangler.demangle(name, style: style)
                transcript.append(answer ?? "-")
                guard let answer else { continue }
                if answer.isEmpty || answer.utf8.count > Self.maxDemangledBytes {
                    problems.append(
                        MachOProbe.Problem(
                            property: "demangled-length",
                            message: "a name of \(name.utf8.count) bytes demangled to \(answer.utf8.count) bytes"
                        )
                    )
                }
            }
        }
    }

    /// C++ (`_Z`, `__Z` with the Mach-O underscore) rather than Swift.
    static func isCxx(_ name: String) -> Bool {
        name.hasPrefix("_Z") || name.hasPrefix("__Z")
    }

    /// The lines of a text file of mangled names (one per line), nil when fewer than half of its first lines are
    /// mangled names: what `apm-inspect fuzz` drives through the demanglers rather than only `inspect`.
    static func nameList(_ bytes: [UInt8]) -> [String]? {
        guard !bytes.isEmpty, !bytes.contains(0) else { return nil }
        let lines = bytes.split(separator: 0x0A).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        let sample = lines.prefix(200).filter { !$0.isEmpty }
        guard !sample.isEmpty, sample.filter(Demangler.isMangled).count * 2 >= sample.count else { return nil }
        return lines
    }
}
