extension BackendEventPrinter {
    /// Ends a run of `inspect` or `scan`: prints the held envelope, then the errors and a summary line on `sink`'s
    /// standard error; true when something failed (exit status 1).
    package func finish(summary: String, sink: OutputSink) -> Bool {
        let failures = finish()
        for failure in failures { sink.error(failure) }
        let unit = format == .otel ? "OTLP documents" : "events"
        sink.error("apm-inspect: note: \(count) \(unit); " + summary)
        return !failures.isEmpty
    }
}
