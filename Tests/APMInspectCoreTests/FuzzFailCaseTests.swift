import Foundation
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// Replays, without sanitizers, every input the core fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and their
/// seeds, through the same calls and properties as the targets in `Fuzz/Sources/`.
@Suite struct FuzzFailCaseTests {
    @Test func ipsContainer() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzIPSContainer", corpus: ["jetsam": ".ips", "crash": ".ips"])
        {
            let container = IPSContainer(bytes: bytes)
            let again = IPSContainer(bytes: bytes)
            #expect(container.header == again.header && container.body == again.body, "\(name)")
            #expect(container.bodyOrigin.byteOffset + container.body.count == bytes.count, "\(name)")
            if let header = container.header { FuzzReplayInputs.expectEncodes(header, name) }
            if let document = try? container.parseJSONBody() {
                FuzzReplayInputs.expectEncodes(document.root.materialized, name)
                if let strict = try? container.parseJSONBody(options: .strict) {
                    #expect(strict.root.materialized == document.root.materialized, "\(name)")
                }
            }
        }
    }

    @Test func jsonTapeBuilders() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJSONTape", corpus: ["http": ".har"]) {
            bytes.withUnsafeBytes { buffer in
                let limits = JSONParseOptions(maxDepth: 64)
                var fast = JSONFastTapeBuilder(buffer: buffer, maxDepth: limits.maxDepth)
                let fastTape: [JSONNode]? = fast.build() ? fast.nodes.toArray() : nil
                fast.nodes.release()
                var strictOptions = limits
                strictOptions.lenient = false
                var strict = JSONTapeBuilder(buffer: buffer, options: strictOptions)
                let strictRoot = try? strict.build()
                let strictTape = strictRoot.map { _ in strict.nodes.toArray() }
                strict.nodes.release()
                var lenient = JSONTapeBuilder(buffer: buffer, options: limits)
                let lenientRoot = try? lenient.build()
                let lenientTape = lenientRoot.map { _ in lenient.nodes.toArray() }
                lenient.nodes.release()
                if let fastTape {
                    #expect(strictTape.map { Self.same(fastTape, $0) } == true, "fast vs strict: \(name)")
                }
                if let strictTape {
                    #expect(lenientTape.map { Self.same(strictTape, $0) } == true, "strict vs lenient: \(name)")
                    #expect(
                        !lenient.diagnostics.contains { $0.severity >= .warning },
                        "lenient repaired strict JSON: \(name)"
                    )
                }
            }
        }
    }

    @Test func outputEncoder() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJSONEncoder", corpus: ["http": ".har"]) {
            guard let document = try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)) else {
                continue
            }
            FuzzReplayInputs.expectEncodes(document.root.materialized, name)
            let value = document.root.materialized
            let compact = try JSONDocument(bytes: Array(try SortedJSONEncoder().encode(value).utf8), options: .strict)
            let pretty = try JSONDocument(
                bytes: Array(try SortedJSONEncoder(pretty: true).encode(value).utf8),
                options: .strict
            )
            #expect(compact.root.materialized == pretty.root.materialized, "\(name)")
        }
    }

    @Test func gzip() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzGzip", corpus: ["http": ".gz", "powerlog": ".gz"]) {
            let limit = 1 << 20
            let whole = try? Inflate.decompress(bytes, maxOutputBytes: limit)
            let inflater = try Inflater()
            let a = bytes.count / 3
            let b = bytes.count - bytes.count / 4
            var pieces: [UInt8] = []
            var ended = false
            var failed = false
            // Every piece is fed: a member may end in one piece and the next member start in the following one.
            for range in [0..<a, a..<b, b..<bytes.count] where !failed {
                do {
                    let (out, done) = try inflater.feed(Array(bytes[range]), maxOutputBytes: limit)
                    pieces += out
                    ended = done
                } catch {
                    failed = true
                }
            }
            #expect((whole == nil) == failed, "\(name)")
            if let whole, !failed { #expect(pieces == whole.bytes && ended == !whole.isTruncated, "\(name)") }
        }
    }

    @Test func tar() throws {
        let inputs = try FuzzReplayInputs.load("FuzzTar", corpus: ["sysdiagnose": ".tar.gz", "powerlog": ".tar.gz"])
        for (name, bytes) in inputs {
            let options = TarReader.Options(maxTotalBytes: 4 << 20, maxEntries: 200, maxEntryBytes: 256 << 10)
            var found: [TarEntry] = []
            guard (try? TarReader(options: options).read(bytes: bytes, { found.append($0) })) != nil else { continue }
            #expect(found.count <= options.maxEntries, "\(name)")
            for entry in found {
                #expect(!entry.path.hasPrefix("/") && !entry.path.split(separator: "/").contains(".."), "\(name)")
                #expect(UInt64(entry.data.count) <= options.maxEntryBytes, "\(name)")
            }
        }
    }

    /// The tapes agree, leaving out the small-integer cache only the fast builder fills.
    private static func same(_ a: [JSONNode], _ b: [JSONNode]) -> Bool {
        let cache = JSONNode.smallIntegerFlag
        return a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x.kind == y.kind && x.flags & ~cache == y.flags & ~cache && x.start == y.start && x.end == y.end
                    && x.next == y.next && (x.kind == .number || x.count == y.count)
            }
    }
}
