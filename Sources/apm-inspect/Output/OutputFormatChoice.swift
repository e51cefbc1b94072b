import ArgumentParser
import ReportRendering

/// An option type that offers some of the output formats.
protocol OutputFormatChoice: RawRepresentable<String>, ExpressibleByArgument, CaseIterable {}

extension OutputFormatChoice {
    /// The format this choice names (every choice's raw value is an ``OutputFormat`` raw value).
    var format: OutputFormat { OutputFormat(rawValue: rawValue) ?? .text }
}
