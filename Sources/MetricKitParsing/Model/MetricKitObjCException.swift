/// The structured reason of an uncaught Objective-C exception (`MXCrashDiagnosticObjectiveCExceptionReason`,
/// iOS 17 and macOS 14 on).
package struct MetricKitObjCException: Sendable, Equatable, Codable {
    /// `exceptionName`, such as `NSInvalidArgumentException`.
    package var name: String?
    /// `composedMessage`: the reason with its arguments substituted.
    package var message: String?
    package var formatString: String?
    package var arguments: [String]?
    /// `className`, such as `NSException`.
    package var className: String?
    /// `exceptionType`, a human-readable type.
    package var type: String?

    package init() {}
}
