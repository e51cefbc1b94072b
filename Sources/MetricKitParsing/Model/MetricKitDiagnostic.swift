import APMInspectCore
import CrashReportParsing

/// One diagnostic of an `MXDiagnosticPayload`, or the result of an iOS/macOS 27 `DiagnosticReport`: a crash, hang,
/// CPU or disk-write exception, slow launch or memory exception.
public struct MetricKitDiagnostic: Sendable, Equatable, Codable {
    /// The payload array the diagnostic came from.
    public enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
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

    public var kind: Kind
    /// Where the diagnostic is in the file (`[0].crashDiagnostics[1]`).
    public var keyPath: String
    public var version: String?
    public var metadata: MetricKitMetadata
    /// Hangs: `hangDuration`.
    public var hangDuration: MetricKitMeasurement?
    /// CPU exceptions: `totalCPUTime` and `totalSampledTime`.
    public var totalCPUTime: MetricKitMeasurement?
    public var totalSampledTime: MetricKitMeasurement?
    /// Disk-write exceptions: `writesCaused`.
    public var writesCaused: MetricKitMeasurement?
    /// Launch diagnostics: `launchDuration`.
    public var launchDuration: MetricKitMeasurement?
    /// Crashes: the Mach exception type and code and the BSD signal, as numbers.
    public var exceptionType: Int64?
    public var exceptionCode: Int64?
    public var signal: Int64?
    public var terminationReason: String?
    /// Crashes (iOS/macOS 27 `CrashDiagnostic.terminationCategory`): the category the OS counts the termination
    /// under in its foreground and background termination metrics (`watchdog`, `badAccess` …), as written, so a
    /// crash can be matched with those counts.
    public var terminationCategory: String?
    public var virtualMemoryRegionInfo: String?
    public var objectiveCException: MetricKitObjCException?
    /// The sampled call stacks.
    public var callTree: MetricKitCallTree?
    /// Crashes: the same facts in the crash report model (threads and frames flattened from the tree, binary
    /// images from the frames' UUIDs and load addresses), for everything that reads crash reports.
    public var crashReport: CrashReport?
    /// Hangs: what the main thread was doing, set by the tool from the watchdog analysis' classifier
    /// (`MetricKitReport/analyzingHangs(with:)`); nil when not analysed.
    public var analysis: MetricKitHangAnalysis?
    /// Keys of the diagnostic object this reader does not model, verbatim.
    public var unknownKeys: JSONValue?

    package init(kind: Kind, keyPath: String, metadata: MetricKitMetadata = MetricKitMetadata()) {
        self.kind = kind
        self.keyPath = keyPath
        self.metadata = metadata
    }
}
