/// What every module's error says: a stable code, the failure in words, and where.
///
/// Each module has its own error type, so callers can tell a crash report failure from a PowerLog one; they share
/// this shape and the way they are written out.
public protocol ModuleError: Error, CustomStringConvertible {
    associatedtype Code: ErrorCode
    var code: Code { get }
    var message: String { get }
    var location: SourceLocation? { get }
}

extension ModuleError {
    /// `line:column: message` (the location as written by ``SourceLocation``), or the message alone.
    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}

/// A stable error code: a string value rather than an enum case, so codes can be added without breaking callers.
public protocol ErrorCode: Sendable, Hashable, CustomStringConvertible {
    var rawValue: String { get }
}

extension ErrorCode {
    public var description: String { rawValue }
}
