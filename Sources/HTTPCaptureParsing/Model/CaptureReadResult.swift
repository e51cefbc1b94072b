import APMInspectCore

/// A capture read whole or as a stream: the two results a compressed capture is marked on (its compression, a
/// cut-off warning) by one piece of code in ``HTTPCaptureReader``.
protocol CaptureReadResult {
    var capture: HTTPCapture { get set }
    var diagnostics: [Diagnostic] { get set }
}

extension HTTPCaptureReader.Result: CaptureReadResult {}
extension HTTPCaptureStream: CaptureReadResult {}
