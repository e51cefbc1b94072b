import ArgumentParser
import ReportRendering

// `memory-limits --format`: every output format is an option value (the type is the renderers', in ReportRendering).
extension OutputFormat: ExpressibleByArgument {}
