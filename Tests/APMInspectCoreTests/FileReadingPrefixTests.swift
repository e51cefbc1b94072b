import Foundation
import Testing

@testable import APMInspectCore

/// One open and one read per file: the prefix decides whether the rest is read, and a FIFO is never cut short.
@Suite struct FileReadingPrefixTests {
    static func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test func aSmallFileIsReadWholeAndShownWhole() throws {
        let folder = try TemporaryTestFolder()
        let content = Self.bytes(1000)
        let path = try folder.write(content, named: "small.bin")
        var seen: [Int] = []
        let read = try FileReading.contents(atPath: path, stoppingAfter: 4096) {
            seen.append($0.count)
            return false
        }
        guard case .whole(let bytes) = read else {
            Issue.record("expected the whole file")
            return
        }
        #expect(bytes == content)
        #expect(seen == [1000])
        // Stopped, the small file still comes back whole: there was nothing more to leave unread.
        let stopped = try FileReading.contents(atPath: path, stoppingAfter: 4096) { _ in true }
        guard case .stopped(let prefix) = stopped else {
            Issue.record("expected a stop")
            return
        }
        #expect(prefix == content)
    }

    @Test func aLargeFileStopsAfterItsPrefixOrIsReadOn() throws {
        let folder = try TemporaryTestFolder()
        let content = Self.bytes(300_000)
        let path = try folder.write(content, named: "large.bin")
        var calls = 0
        let stopped = try FileReading.contents(atPath: path, stoppingAfter: 65_536) { prefix in
            calls += 1
            return prefix.count == 65_536 && Array(prefix) == Array(content.prefix(65_536))
        }
        guard case .stopped(let prefix) = stopped else {
            Issue.record("expected a stop after the prefix")
            return
        }
        #expect(prefix == Array(content.prefix(65_536)))
        #expect(calls == 1)
        calls = 0
        let whole = try FileReading.contents(atPath: path, stoppingAfter: 65_536) { _ in
            calls += 1
            return false
        }
        guard case .whole(let bytes) = whole else {
            Issue.record("expected the whole file")
            return
        }
        #expect(bytes == content)
        #expect(calls == 1)
        // The plain reader is unchanged.
        #expect(try FileReading.contents(atPath: path) == content)
    }

    @Test func limitsStillApply() throws {
        let folder = try TemporaryTestFolder()
        let path = try folder.write(Self.bytes(10_000), named: "big.bin")
        #expect(throws: InputError.self) {
            try FileReading.contents(atPath: path, maxBytes: 5_000, stoppingAfter: 1_000) { _ in false }
        }
        #expect(throws: InputError.self) {
            try FileReading.contents(atPath: folder.path + "/absent", stoppingAfter: 1_000) { _ in true }
        }
    }

    @Test func aFIFOIsReadWholeAndNeverStopped() throws {
        let folder = try TemporaryTestFolder()
        let fifo = folder.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let content = Self.bytes(100_000)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data(content))
            try? handle.close()
        }
        writer.start()
        var calls = 0
        let read = try FileReading.contents(atPath: fifo, stoppingAfter: 1_000) { _ in
            calls += 1
            return true
        }
        guard case .whole(let bytes) = read else {
            Issue.record("a FIFO can be read once only: it must come back whole")
            return
        }
        #expect(bytes == content)
        #expect(calls == 0)
    }
}
