import APMInspectCore
import ByteAccess

/// Members of the body's nested objects that no field reads (`threads[0].instructionState`,
/// `threads[0].threadState.pc.matchesCrashFrame`, `storeInfo.thirdParty`, a key of a frame this version does not
/// know, a repeated key), collected while reading, to be kept in ``CrashReport/unknownKeys`` under their key paths.
///
/// The body's own unknown members are kept by the reader; these are the ones inside the objects it reads, which were
/// dropped before. For a body that parsed as strict JSON a value is kept as the byte range of its text (read when
/// ``CrashReport/unknownKeys`` is, as the body's own unknown members are); otherwise it is copied now, as the
/// repairs made it. A class, so that the reader's non-mutating helpers (which fill frames and images in place) can
/// keep; bounded by the unknown-entry limits of ``CrashLimitTally``.
final class CrashJSONUnreadMembers {
    /// How one value is kept.
    enum Kept {
        /// The byte range of the value's JSON text in the report's bytes.
        case range(Range<Int>)
        case value(JSONValue)
    }

    struct Entry {
        let keyPath: String
        let kept: Kept
    }

    private let tally: CrashLimitTally
    /// True when values are kept as byte ranges (a strict document whose bytes the report shares).
    let byRange: Bool
    private(set) var entries: [Entry] = []

    init(tally: CrashLimitTally, byRange: Bool) {
        self.tally = tally
        self.byRange = byRange
    }

    /// Keeps `value`, which no field read, under `keyPath`.
    func keep(_ value: JSONUnsafeValue, at keyPath: String) {
        let range = value.sourceRange
        guard tally.admitUnknown(bytes: keyPath.utf8.count + (byRange ? 0 : range.count)) else { return }
        entries.append(Entry(keyPath: keyPath, kept: byRange ? .range(range) : .value(value.materialized)))
    }

    /// The same for a value read through a ``JSONElement``.
    func keep(_ value: JSONElement, at keyPath: String) {
        let range = value.sourceRange
        guard tally.admitUnknown(bytes: keyPath.utf8.count + (byRange ? 0 : range.count)) else { return }
        entries.append(Entry(keyPath: keyPath, kept: byRange ? .range(range) : .value(value.materialized)))
    }

    /// Keeps each member of `object` whose raw key is not one of `read`, and each later member of a key in `read`
    /// (the fields read the first), under `path.KEY`.
    func keepUnread(of object: JSONElement, at path: String, read: [StaticString]) {
        guard object.kind == .object else { return }
        var seen = [Bool](repeating: false, count: read.count)
        object.forEachMemberRaw { raw, value in
            if let index = read.firstIndex(where: { raw.equals($0) }),
                !seen[index]
            {
                seen[index] = true
                return true
            }
            keep(value, at: path + "." + JSONElement.decodedString(rawBytes: raw))
            return true
        }
    }
}
