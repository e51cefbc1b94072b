import APMInspectCore

/// `diagnosticMetaData`: what the OS says about the app and the device for one diagnostic.
package struct MetricKitMetadata: Sendable, Equatable, Codable {
    package var appVersion: String?
    package var appBuildVersion: String?
    /// As written (`iPhone OS 14.0.1 (18A393)`).
    package var osVersion: String?
    package var osName: String?
    package var osVersionNumber: String?
    package var osBuild: String?
    /// Model identifier (`iPhone10,2`).
    package var deviceType: String?
    package var regionFormat: String?
    package var platformArchitecture: String?
    package var bundleIdentifier: String?
    package var pid: Int64?
    package var lowPowerModeEnabled: Bool?
    package var isTestFlightApp: Bool?
    /// Keys this reader does not model (the measurement and crash keys are read into the diagnostic), verbatim.
    package var unknownKeys: JSONValue?

    package init() {}
}
