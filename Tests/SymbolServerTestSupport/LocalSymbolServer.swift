import Foundation

/// A real HTTP symbol server for the tests: `symbol_server.py` (beside this file) run by python3 over a temporary
/// folder laid out in Sentry's unified layout (`unified/`) and lldb's (`lldb/`).
///
/// Each layout holds the fixture dSYM's DWARF file under both of its UUIDs. No internet is needed: it listens on 127.0.0.1 and an ephemeral port.
package final class LocalSymbolServer: @unchecked Sendable {
    /// The repository's root (this file is in Tests/SymbolServerTestSupport/).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The fat fixture dSYM's DWARF file: an arm64 and an x86_64 slice, one UUID each.
    package static let fatDWARF = root.appendingPathComponent(
        "Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat"
    )
    package static let arm64UUID = "4c4c448655553144a1752df7479ac8fa"
    package static let x86UUID = "4c4c448e55553144a15d64c4e4fa849b"

    package let folder: URL
    package let port: Int
    private let process: Process
    private let log: URL

    /// `http://127.0.0.1:PORT`.
    package var base: String { "http://127.0.0.1:\(port)" }

    /// Starts the server over a new temporary folder; `lay` may add files to it first.
    package init(lay: (URL) throws -> Void = { _ in }) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("symsrv-\(UUID().uuidString)")
        let served = folder.appendingPathComponent("served")
        for uuid in [Self.arm64UUID, Self.x86UUID] {
            let unified = served.appendingPathComponent("unified/\(uuid.prefix(2))/\(uuid.dropFirst(2))/debuginfo")
            let upper = Array(uuid.uppercased())
            let parts = stride(from: 0, to: 20, by: 4).map { String(upper[$0..<$0 + 4]) } + [String(upper[20...])]
            let lldb = served.appendingPathComponent("lldb/" + parts.joined(separator: "/"))
            for target in [unified, lldb] {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                try FileManager.default.copyItem(at: Self.fatDWARF, to: target)
            }
        }
        try lay(served)
        log = folder.appendingPathComponent("requests.log")
        FileManager.default.createFile(atPath: log.path, contents: Data())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.root.appendingPathComponent("Tests/SymbolServerTestSupport/symbol_server.py").path,
            served.path, log.path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    /// The paths asked so far, in order.
    package var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Stops the server (what it served stays until ``remove()``).
    package func stop() {
        // SIGKILL: a test runner may leave SIGTERM ignored, and an ignored signal stays ignored across exec.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Stops the server and removes its folder.
    package func remove() {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { remove() }
}
