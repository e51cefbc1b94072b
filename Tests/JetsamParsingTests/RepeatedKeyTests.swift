import APMInspectCore
import Foundation
import Testing

@testable import JetsamParsing

/// A repeated key resolves the same way in the full model and in the memory-limit fast path: the last member of a
/// name wins, and every `processes` list of a body is read (docs/json-output.md, "Repeated keys").
@Suite struct RepeatedKeyTests {
    private static func agree(_ bytes: [UInt8]) -> (MemoryLimitEvidence, MemoryLimitEvidence)? {
        let container = IPSContainer(bytes: bytes)
        let parser = JetsamParser()
        guard let fast = try? parser.memoryLimitEvidence(container, contentHash: { 7 }),
            let full = try? parser.parse(container)
        else { return nil }
        return (fast.evidence, MemoryLimitEvidence(event: full.event, contentHash: 7))
    }

    /// The shape of `Fuzz/FailCases/FuzzJetsamLimits/merged-process-objects.ips`: a missing `}` merges two entries
    /// into one object, whose repeated `name`, `rpages` and `pid` belong to the second, the killed app.
    @Test func aMergedProcessEntryIsTheLastOfItsKeys() throws {
        let text = """
            {"product":"iPhone13,2","build":"iPhone OS 15.2 (19C56)","memoryStatus":{"pageSize":16384},
             "processes":[
              {"pid":218,"name":"securityd","rpages":1872,"states":["daemon"],
               "pid":799,"name":"Bookshelf Reader","rpages":134290,"states":["frontmost"],"reason":"per-process-limit"}
             ]}
            """
        let (fast, full) = try #require(Self.agree(Array(text.utf8)))
        #expect(fast == full)
        #expect(full.kills == [.init(role: .foregroundApp, name: "Bookshelf Reader", limitMB: 2098)])
    }

    @Test func everyProcessesListOfABodyIsRead() throws {
        let text = """
            {"product":"iPhone13,2","build":"iPhone OS 15.2 (19C56)","memoryStatus":{"pageSize":16384},
             "processes":[{"pid":1,"name":"first","rpages":100,"states":["frontmost"],"reason":"per-process-limit"}],
             "largestProcess":"second",
             "processes":[{"pid":2,"name":"second","rpages":200,"states":["frontmost"],"reason":"per-process-limit"}]}
            """
        let (fast, full) = try #require(Self.agree(Array(text.utf8)))
        #expect(fast == full)
        #expect(full.kills.map(\.name) == ["first", "second"])
    }

    @Test func aRepeatedMemoryStatusOrPageSizeIsTheLast() throws {
        let text = """
            {"product":"iPhone13,2","build":"iPhone OS 15.2 (19C56)",
             "memoryStatus":{"pageSize":4096,"pageSize":16384,
               "memoryPages":{"active":1,"inactive":1,"free":1,"wired":1},
               "memoryPages":{"active":100000,"inactive":100000,"free":10000,"wired":50000}},
             "processes":[{"name":"app","rpages":1000,"states":["frontmost"],"reason":"per-process-limit"}]}
            """
        let (fast, full) = try #require(Self.agree(Array(text.utf8)))
        #expect(fast == full)
        #expect(full.kills.first?.limitMB == 15)
        #expect(full.estimatedRAMMB == 4062.5)
    }

    @Test func anEscapedKeyIsTheSameKey() throws {
        let text =
            #"{"product":"iPhone13,2","memoryStatus":{"pageSize":16384},"processes":[{"name":"app","rpages":1000,"#
            + #""states":["frontmost"],"priority":10,"pri\u006Frity":1,"reason":"per-process-limit"}]}"#
        let (fast, full) = try #require(Self.agree(Array(text.utf8)))
        #expect(fast == full)
    }

    /// Damaged copies of every corpus report (bytes removed, lines repeated, the file cut): the fast path gives the
    /// full model's evidence whether or not the result is partial.
    @Test func theFastPathAgreesOnDamagedReportsPartialOrNot() throws {
        let iterations = Int(ProcessInfo.processInfo.environment["APM_INSPECT_DAMAGE_ITERATIONS"] ?? "") ?? 40
        var checked = 0
        for name in CorpusSupport.jetsamFiles {
            let original = try CorpusSupport.bytes(name)
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(original.count)
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return bound > 0 ? Int((state >> 33) % UInt64(bound)) : 0
            }
            for _ in 0..<iterations {
                var bytes = original
                for _ in 0..<(1 + next(3)) {
                    guard !bytes.isEmpty else { break }
                    switch next(4) {
                    case 0:
                        // Remove one structural byte.
                        let structural = bytes.indices.filter { "{}[],:\"".utf8.contains(bytes[$0]) }
                        if !structural.isEmpty { bytes.remove(at: structural[next(structural.count)]) }
                    case 1:
                        // Repeat a line somewhere else.
                        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                        var copy = lines
                        copy.insert(lines[next(lines.count)], at: next(lines.count + 1))
                        bytes = Array(copy.joined(separator: [0x0A]))
                    case 2:
                        bytes.removeLast(next(bytes.count / 4 + 1))
                    default:
                        // Remove a whole line.
                        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                        lines.remove(at: next(lines.count))
                        bytes = Array(lines.joined(separator: [0x0A]))
                    }
                }
                let container = IPSContainer(bytes: bytes)
                guard let fast = try? JetsamParser().memoryLimitEvidence(container, contentHash: { 7 }),
                    let full = try? JetsamParser().parse(container)
                else { continue }
                // Open finding (Fuzz/FailCases/FuzzJetsamLimits/open/): damage inside a process entry the fast path
                // skipped unread can pass for JSON there while the full reader repairs it; the fast path then calls
                // its evidence whole. Every other combination must agree.
                if !fast.isPartial, full.event.isPartial { continue }
                checked += 1
                let expected = MemoryLimitEvidence(event: full.event, contentHash: 7)
                #expect(fast.evidence == expected, "\(name): \(String(decoding: bytes, as: UTF8.self))")
                if fast.evidence != expected { return }
            }
        }
        #expect(checked > 0)
    }
}
