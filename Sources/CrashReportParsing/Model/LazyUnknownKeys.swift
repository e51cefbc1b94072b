import APMInspectCore

/// How ``CrashReport/unknownKeys`` is kept: a value, or the members of a JSON body the model does not know, as
/// byte ranges of the report that are read into values when asked for.
///
/// A JSON report's unknown members (`sharedCache`, `legacyInfo`, `trialInfo` …) are nested objects: made into
/// values for every report they cost an allocation per value, more than a twentieth of reading the report, and few
/// readers look at them. Ranges are kept only for a body that parsed as strict JSON, where reading a member's bytes
/// again gives exactly the value the document held. Encoding, decoding and equality go through the value.
@propertyWrapper
public struct LazyUnknownKeys: Sendable, Equatable, Codable {
    enum Storage: Sendable {
        case value(JSONValue?)
        case members(CrashReport.SharedText, [Member])
    }

    /// An unknown member: its decoded key and the byte range of its value's JSON text.
    struct Member: Sendable {
        let key: String
        let range: Range<Int>
    }

    var storage: Storage

    /// Keys already decoded.
    public init(wrappedValue: JSONValue?) {
        storage = .value(wrappedValue)
    }

    init(members: [Member], of shared: CrashReport.SharedText) {
        storage = members.isEmpty ? .value(nil) : .members(shared, members)
    }

    /// The unknown keys, decoded on first read.
    public var wrappedValue: JSONValue? {
        get {
            switch storage {
            case .value(let value):
                return value
            case .members(let shared, let members):
                return .object(
                    members.map { JSONValue.Member(key: $0.key, value: Self.value(of: $0.range, in: shared)) }
                )
            }
        }
        set { storage = .value(newValue) }
    }

    /// The value whose JSON text is `range` of the report's bytes.
    private static func value(of range: Range<Int>, in shared: CrashReport.SharedText) -> JSONValue {
        kept(of: range, in: shared).value
    }

    /// The root of a parse of `range` of the report's bytes, which writers write from without making the value.
    private static func kept(of range: Range<Int>, in shared: CrashReport.SharedText) -> KeptJSONMembers.Member {
        let bytes = shared.bytes
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty,
            let document = try? JSONDocument(bytes: Array(bytes[range]))
        else {
            // Not reached for the ranges the reader keeps (strict JSON); the text is kept rather than lost.
            let clamped = min(max(range.lowerBound, 0), bytes.count)..<min(max(range.upperBound, 0), bytes.count)
            return .value(.string(String(decoding: bytes[clamped], as: UTF8.self)))
        }
        return .element(document.root)
    }

    /// Writes the value as `name`, as its coding writes it (nothing for nil); members still in the report's text
    /// are written from parses of it, never made into values.
    func write(_ name: StaticString, into object: inout JSONObjectWriter) {
        switch storage {
        case .value(let value):
            object.write(name, value)
        case .members(let shared, let members):
            object.write(name, count: members.count) {
                members[$0].key
            } value: {
                Self.kept(of: members[$0].range, in: shared)
            }
        }
    }

    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        storage = .value(try JSONValue?(from: decoder))
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }

    /// Equal when they say the same thing: equality by content, never by storage.
    public static func == (lhs: LazyUnknownKeys, rhs: LazyUnknownKeys) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}

// The synthesised coding of a wrapped property treats the wrapper as always present; these keep the key out of the
// output when there is no value, and accept its absence, as for a plain optional property.
extension KeyedEncodingContainer {
    /// Encodes the wrapped value, or nothing when it is nil.
    package mutating func encode(_ value: LazyUnknownKeys, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Decodes the wrapped value, or nil when the key is absent.
    package func decode(_ type: LazyUnknownKeys.Type, forKey key: Key) throws -> LazyUnknownKeys {
        LazyUnknownKeys(wrappedValue: try decodeIfPresent(JSONValue.self, forKey: key))
    }
}
