/// The structured reason of an uncaught Objective-C exception (`MXCrashDiagnosticObjectiveCExceptionReason`,
/// iOS 17 and macOS 14 on).
public struct MetricKitObjCException: Sendable, Equatable, Codable {
    /// `exceptionName`, such as `NSInvalidArgumentException`.
    public var name: String?
    /// `composedMessage`: the reason with its arguments substituted.
    public var message: String?
    public var formatString: String?
    public var arguments: [String]?
    /// `className`, such as `NSException`.
    public var className: String?
    /// `exceptionType`, a human-readable type.
    public var type: String?

    package init() {}
}
