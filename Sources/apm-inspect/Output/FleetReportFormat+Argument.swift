import ArgumentParser
import ReportRendering

// `report --format` (the type is the renderers', in ReportRendering).
extension FleetReportFormat: ExpressibleByArgument {}
