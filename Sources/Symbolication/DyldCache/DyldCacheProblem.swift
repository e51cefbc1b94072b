import APMInspectCore

/// Why a dyld shared cache, or part of it, cannot be used: a diagnostic code of its own and the words.
struct DyldCacheProblem: Error {
    var code: Diagnostic.Code
    var message: String

    init(_ code: Diagnostic.Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func truncated(_ message: String) -> DyldCacheProblem {
        DyldCacheProblem(.symbolsDyldCacheTruncated, message)
    }

    /// The same, as the store's error when an image is opened.
    var error: SymbolicationError {
        SymbolicationError(.malformedMachO, message)
    }
}
