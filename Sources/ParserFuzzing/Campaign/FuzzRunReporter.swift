/// Where a campaign's messages go: the library never prints, the executable decides how each one looks.
package protocol FuzzRunReporter: Sendable {
    /// A corpus path that gave no file; the run goes on with the others.
    func fileError(path: String, message: String)
    /// A corpus file left out of the run.
    func fileWarning(path: String, message: String)
    /// A problem that does not stop the run, such as a finding that cannot be saved.
    func error(_ message: String)
    /// The progress line, redrawn in place about once a second while the run lasts.
    func progress(_ line: String)
    /// The run is over: the progress line must go before the summary is written.
    func progressEnded()
}
