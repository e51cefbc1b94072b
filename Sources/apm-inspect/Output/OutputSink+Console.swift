import ReportRendering

extension OutputSink {
    /// Standard output and standard error through ``Console``, which records failed writes and escapes error text.
    static let console = OutputSink(
        bytes: { Console.out(bytes: $0) },
        error: { Console.error($0) },
        stopped: { Console.outputFailed }
    )
}
