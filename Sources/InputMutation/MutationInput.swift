/// An input to mutate: its bytes, its family and the map of its structure, computed once.
public struct MutationInput: Sendable {
    /// The input as read.
    public let bytes: [UInt8]
    /// The format the mutators treat the input as.
    public let family: InputFamily
    /// Where the structure is, computed once for every mutation of this input.
    public let map: StructureMap

    /// Sniffs the family from the content unless it is given, then maps the structure.
    public init(bytes: [UInt8], family: InputFamily? = nil) {
        let resolved = family ?? InputFamily.sniff(bytes)
        self.bytes = bytes
        self.family = resolved
        self.map = StructureMap.build(for: bytes, family: resolved)
    }
}

/// What one call of ``MutationEngine/mutate(_:donors:rng:)`` produced, and how.
package struct Mutation: Sendable, Equatable {
    package var bytes: [UInt8]
    /// The mutators applied, in order, each with the offset it worked at (`json.number-at-limit@1234`).
    package var steps: [String]

    /// The steps as one line.
    package var summary: String { steps.joined(separator: " + ") }
}
