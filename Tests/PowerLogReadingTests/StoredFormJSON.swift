import Foundation

/// JSON of a model value and of its stored-property twin, for checking that a compacted type encodes as the plain
/// struct it replaced.
enum StoredFormJSON {
    /// Sorted keys and non-finite numbers as strings (a reading may be NaN or infinite).
    ///
    /// Equal values then give equal text whatever order Foundation's encoder would pick on Linux. The key order of
    /// the tool's own writer is checked by comparing the command's output before and after (docs/powerlog.md).
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
