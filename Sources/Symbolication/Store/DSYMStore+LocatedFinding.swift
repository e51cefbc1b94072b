import APMInspectCore

extension DSYMStore {
    /// A finding of the dSYM search and the path it is about, kept apart so a command can print
    /// `path: severity: message` as every error line reads; the store's own ``DSYMStore/findings`` join them.
    package struct LocatedFinding: Sendable, Equatable {
        /// The path as shown (controls not yet escaped); a zip entry as `archive:member`.
        package var path: String
        package var diagnostic: Diagnostic

        package init(path: String, diagnostic: Diagnostic) {
            self.path = path
            self.diagnostic = diagnostic
        }

        /// The diagnostic with its message led by the path, as ``DSYMStore/findings`` holds it.
        package var joined: Diagnostic {
            var joined = diagnostic
            joined.message = "\(path): \(diagnostic.message)"
            return joined
        }
    }
}
