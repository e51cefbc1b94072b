extension BackendEventPrinter {
    /// Ends a run of `inspect` or `scan`: prints the held envelope, then the errors and a summary line on `sink`'s
    /// standard error; true when something failed (exit status 1).
    package func finish(summary: String, sink: OutputSink) -> Bool {
        let failures = finish()
        for failure in failures { sink.error(failure) }
        let unit = format == .otel ? "OTLP documents" : "events"
        sink.error("apm-inspect: note: \(count) \(unit); " + summary)
        let duplicates = duplicatesLeftOut
        if duplicates > 0 {
            sink.error(
                "apm-inspect: note: \(duplicates) crash report(s) not exported: each is a copy of a crash a richer "
                    + "report of the inputs gives, whose event names it (apm_inspect.linked_sources); "
                    + "--keep-duplicates exports them"
            )
        }
        if linkingFailed {
            sink.error(
                "apm-inspect: warning: crash events could not be held in the temporary folder; some were exported "
                    + "as read, unlinked"
            )
        }
        let old = beyondRetentionCount
        if old > 0 {
            let what =
                old == 1
                ? "1 event is older than Sentry's 90-day retention window: Sentry will date it when it receives it"
                : "\(old) events are older than Sentry's 90-day retention window: Sentry will date them when it "
                    + "receives them"
            sink.error("apm-inspect: note: " + what + "; the tag original_timestamp keeps each one's own time")
        }
        return !failures.isEmpty
    }
}
