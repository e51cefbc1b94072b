import APMInspectCore
import CrashReportParsing

/// One diagnostic of an `MXDiagnosticPayload`, or the result of an iOS/macOS 27 `DiagnosticReport`: a crash, hang,
/// CPU or disk-write exception, slow launch or memory exception.
package struct MetricKitDiagnostic: Sendable, Equatable, Codable {
    /// The payload array the diagnostic came from.
    package enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        case crash
        case hang
        case cpuException
        case diskWriteException
        case appLaunch
        case memoryException
        /// A bare `MXCallStackTree`, outside any payload.
        case callStackTree

        /// The payload key of the array (`crashDiagnostics` …).
        package var payloadKey: String {
            switch self {
            case .crash: "crashDiagnostics"
            case .hang: "hangDiagnostics"
            case .cpuException: "cpuExceptionDiagnostics"
            case .diskWriteException: "diskWriteExceptionDiagnostics"
            case .appLaunch: "appLaunchDiagnostics"
            case .memoryException: "memoryExceptionDiagnostics"
            case .callStackTree: "callStacks"
            }
        }
    }

    package var kind: Kind
    /// Where the diagnostic is in the file (`[0].crashDiagnostics[1]`).
    package var keyPath: String
    package var version: String?
    package var metadata: MetricKitMetadata
    /// Hangs: `hangDuration`.
    package var hangDuration: MetricKitMeasurement?
    /// CPU exceptions: `totalCPUTime` and `totalSampledTime`.
    package var totalCPUTime: MetricKitMeasurement?
    package var totalSampledTime: MetricKitMeasurement?
    /// Disk-write exceptions: `writesCaused`.
    package var writesCaused: MetricKitMeasurement?
    /// Launch diagnostics: `launchDuration`.
    package var launchDuration: MetricKitMeasurement?
    /// Crashes: the Mach exception type and code and the BSD signal, as numbers.
    package var exceptionType: Int64?
    package var exceptionCode: Int64?
    package var signal: Int64?
    package var terminationReason: String?
    /// Crashes (iOS/macOS 27 `CrashDiagnostic.terminationCategory`): the category the OS counts the termination
    /// under in its foreground and background termination metrics (`watchdog`, `badAccess` …), as written, so a
    /// crash can be matched with those counts.
    package var terminationCategory: String?
    package var virtualMemoryRegionInfo: String?
    package var objectiveCException: MetricKitObjCException?
    /// The sampled call stacks.
    package var callTree: MetricKitCallTree?
    /// Crashes: the same facts in the crash report model (threads and frames flattened from the tree, binary
    /// images from the frames' UUIDs and load addresses), for everything that reads crash reports.
    package var crashReport: CrashReport?
    /// Hangs: what the main thread was doing, set by the tool from the watchdog analysis' classifier
    /// (`MetricKitReport/analyzingHangs(with:)`); nil when not analysed.
    package var analysis: MetricKitHangAnalysis?
    /// Keys of the diagnostic object this reader does not model, verbatim.
    package var unknownKeys: JSONValue?

    package init(kind: Kind, keyPath: String, metadata: MetricKitMetadata = MetricKitMetadata()) {
        self.kind = kind
        self.keyPath = keyPath
        self.metadata = metadata
    }
}
