import APMInspectCore

/// Why a tool call gave no result: a tool error (`isError: true`) carrying a stable code, never a protocol error,
/// so that a client shows it to the model and the session goes on.
package struct ToolFailure: Error, Sendable, Equatable {
    package var code: Diagnostic.Code
    package var message: String
    /// The path the failure is about, as the call gave it (or as a folder's walk named it).
    package var path: String?

    package init(_ code: Diagnostic.Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }
}
