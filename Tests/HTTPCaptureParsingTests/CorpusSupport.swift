import APMInspectCore
import Foundation
import HTTPCaptureParsing
import Testing

/// Access to the repository's Corpus/http files.
enum Corpus {
    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Corpus/http").path
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileReading.contents(atPath: directory + "/" + name)
    }

    static func read(_ name: String, options: HTTPCaptureOptions = HTTPCaptureOptions()) throws
        -> HTTPCaptureReader.Result
    {
        try HTTPCaptureReader(options: options).read(bytes(name))
    }
}

/// Compares doubles to the microsecond.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 0.001) -> Bool { abs(a - b) <= tolerance }
