import ByteAccess

/// The containers a tape builder skipped for nesting past the depth limit (``JSONParseOptions/skipsTooDeep``):
/// a warning with its location for each of the first few, then a count, so that a file of a million deep values
/// does not give a million findings.
struct JSONDepthCuts {
    private var listed: [Diagnostic] = []
    private(set) var count = 0
    static let maxListed = 8

    mutating func add(at offset: Int, in buffer: BorrowedBytes, maxDepth: Int) {
        count += 1
        guard count <= Self.maxListed else { return }
        listed.append(
            Diagnostic(
                .warning,
                .jsonTooDeepSkipped,
                "a value nested deeper than \(maxDepth) levels was skipped: what it holds was not read",
                at: TextPosition.location(in: buffer, byteOffset: offset)
            )
        )
    }

    /// The warnings, with a last one counting those not listed.
    var diagnostics: [Diagnostic] {
        guard count > Self.maxListed else { return listed }
        let more = "\(count - Self.maxListed) more values nested too deep were skipped"
        return listed + [Diagnostic(.warning, .jsonTooDeepSkipped, more)]
    }
}
