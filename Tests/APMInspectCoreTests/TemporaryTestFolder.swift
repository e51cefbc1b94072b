import Foundation

@testable import APMInspectCore

/// A private folder for one test's generated files, removed when the test ends.
final class TemporaryTestFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/apm-inspect-test-XXXXXX").utf8CString)
        guard
            let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } })
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    var raw: RawPath { RawPath(path) }

    /// Writes `bytes` to a new file `name` in the folder; returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], named name: String) throws -> String {
        let file = path + "/" + name
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return file
    }

    /// Writes `bytes` to a file whose name is the given bytes (not necessarily UTF-8); returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], rawName: [UInt8], in folder: RawPath? = nil) throws -> RawPath {
        let file = (folder ?? raw).appending(rawName)
        let fd = file.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return file
    }
}
