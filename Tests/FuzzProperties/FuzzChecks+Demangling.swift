import APMInspectCore
import Symbolication

extension FuzzChecks {
    /// The mangling a demangler target feeds: bytes without its prefix get it, so mutations stay in one grammar.
    public enum Mangling: Sendable {
        case swift, cxx
    }

    /// Most bytes a demangled name may hold: the demangler's cut plus its `…` marker.
    static let maximumDemangledBytes = Demangler.maxDemangledLength + "…".utf8.count

    /// `FuzzSwiftDemangle` and `FuzzCxxDemangle`: the bytes as one symbol name, through Symbolication's demangler
    /// in both styles.
    ///
    /// A name either stays mangled (nil) or reads as a non-empty name no longer than the cut;
    /// libFuzzer's `-timeout` and `-rss_limit_mb` bound the time and memory each name may take.
    public static func demangle(_ bytes: [UInt8], as mangling: Mangling) -> FuzzFindings {
        var found = FuzzFindings()
        var name = String(decoding: bytes, as: UTF8.self)
        switch mangling {
        case .swift where !(name.hasPrefix("$s") || name.hasPrefix("_$s") || name.hasPrefix("$S")):
            name = "$s" + name
        case .cxx where !(name.hasPrefix("_Z") || name.hasPrefix("__Z")):
            name = "_Z" + name
        default:
            break
        }
        requireDemangles(name, &found)
        return found
    }

    /// The properties of one name's demangling, shared by the demangler targets and `FuzzMachO`.
    static func requireDemangles(_ name: String, _ found: inout FuzzFindings) {
        for style in [Demangler.Style.simplified, .full] {
            guard let readable = Demangler.demangle(name, style: style) else { continue }
            found.require(!readable.isEmpty, "an empty demangled name")
            found.require(Demangler.isMangled(name), "a name demangled without a mangling prefix")
            found.require(
                readable.utf8.count <= maximumDemangledBytes,
                "a demangled name of \(readable.utf8.count) bytes from \(name.utf8.count)"
            )
        }
    }
}
