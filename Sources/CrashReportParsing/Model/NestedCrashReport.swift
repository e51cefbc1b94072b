import APMInspectCore

/// How ``CrashReport/recrashReport`` is kept: a report inside a report.
///
/// A struct cannot hold a value of its own type directly; an array holds its elements out of line, so the report
/// keeps the nested one as an array of at most one. Coding and equality go through the optional value, so the key
/// is absent when there is none, as for a plain optional property.
@propertyWrapper
public struct NestedCrashReport: Sendable, Equatable, Codable {
    private var storage: [CrashReport]

    /// Wraps a value assigned in an initialiser or a memberwise copy.
    public init(wrappedValue: CrashReport?) {
        storage = wrappedValue.map { [$0] } ?? []
    }

    /// The value the property reads and writes.
    public var wrappedValue: CrashReport? {
        get { storage.first }
        set { storage = newValue.map { [$0] } ?? [] }
    }

    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        storage = try CrashReport?(from: decoder).map { [$0] } ?? []
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

// The synthesised coding of a wrapped property treats the wrapper as always present; these keep the key out of the
// output when there is no nested report, and accept its absence.
extension KeyedEncodingContainer {
    /// Encodes the nested report, or nothing when there is none.
    package mutating func encode(_ value: NestedCrashReport, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// Decodes the nested report, or none when the key is absent.
    package func decode(_ type: NestedCrashReport.Type, forKey key: Key) throws -> NestedCrashReport {
        NestedCrashReport(wrappedValue: try decodeIfPresent(CrashReport.self, forKey: key))
    }
}
