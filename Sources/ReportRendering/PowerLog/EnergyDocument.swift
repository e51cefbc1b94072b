import APMInspectCore
import PowerLogReading
import ReportInspection

/// The JSON document of `energy --format json`: the inspect envelope, with every file read.
struct EnergyDocument: Encodable {
    var files: [String]
    var kind: FileKind
    var diagnostics: [Diagnostic]
    var report: PowerLogReport
}
