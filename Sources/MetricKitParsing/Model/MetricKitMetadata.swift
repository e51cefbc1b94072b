import APMInspectCore

/// `diagnosticMetaData`: what the OS says about the app and the device for one diagnostic.
public struct MetricKitMetadata: Sendable, Equatable, Codable {
    public var appVersion: String?
    public var appBuildVersion: String?
    /// As written (`iPhone OS 14.0.1 (18A393)`).
    public var osVersion: String?
    public var osName: String?
    public var osVersionNumber: String?
    public var osBuild: String?
    /// Model identifier (`iPhone10,2`).
    public var deviceType: String?
    public var regionFormat: String?
    public var platformArchitecture: String?
    public var bundleIdentifier: String?
    public var pid: Int64?
    public var lowPowerModeEnabled: Bool?
    public var isTestFlightApp: Bool?
    /// Keys this reader does not model (the measurement and crash keys are read into the diagnostic), verbatim.
    public var unknownKeys: JSONValue?

    package init() {}
}
