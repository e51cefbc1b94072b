import Foundation
import FuzzReplaySupport
import Testing

/// `--app` through the built binary: inspect, scan and report keep one app's reports and count the rest.
@Suite struct AppOptionCommandTests {
    /// Three JetsamEvents (a daemon killed while SnapCollage was on screen, SnapCollage killed, a daemon killed
    /// while Notes was on screen) and a crash report of another app.
    static func folder() throws -> URL {
        let folder = try BuiltCommandTests.makeFolder()
        let events: [(String, [JetsamFixture.Entry])] = [
            ("1", [.frontmostApp("SnapCollage"), .idleDaemon("financed", reason: "per-process-limit")]),
            ("2", [.idleDaemon("financed"), .frontmostApp("SnapCollage", reason: "per-process-limit")]),
            ("3", [.frontmostApp("Notes"), .idleDaemon("financed", reason: "per-process-limit")]),
        ]
        for (number, entries) in events {
            let bytes = JetsamFixture.report(entries, incident: "0A1B2C3D-0000-4000-8000-00000000000\(number)")
            try Data(bytes).write(to: folder.appendingPathComponent("JetsamEvent-\(number).ips"))
        }
        try FileManager.default.copyItem(
            at: BuiltCommandTests.root.appendingPathComponent(BuiltCommandTests.crashText),
            to: folder.appendingPathComponent("other.crash")
        )
        return folder
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func inspectKeepsTheAppsJetsamEventsAndCountsTheRestOnStandardError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--format", "ndjson", "--app", "SnapCollage", folder.path]
        )
        #expect(run.status == 0)
        let files = run.stdout.split(separator: "\n").compactMap { try? Self.json(String($0))["file"] as? String }
        #expect(files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["JetsamEvent-1.ips", "JetsamEvent-2.ips"])
        #expect(run.stderr.contains("2 file(s) left out by --app"))
        let two = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--format", "ndjson", "--app", "SnapCollage", "--app", "Notes", folder.path]
        )
        #expect(two.stdout.split(separator: "\n").count == 3)
    }

    @Test func scanCountsWhatAppLeftOutInItsInventory() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["scan", "--format", "json", "--app", "SnapCollage", folder.path]
        )
        #expect(run.status == 0)
        let document = try Self.json(run.stdout)
        #expect((document["files"] as? [Any])?.count == 2)
        let inventory = try #require(document["inventory"] as? [String: Any])
        #expect(inventory["leftOutByApp"] as? Int == 2)
    }

    @Test func reportCountsADaemonKillApartFromTheAppsOOM() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let all = try Self.json(
            try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["report", "--format", "json", folder.path])
                .stdout
        )
        let categories = try #require(all["categories"] as? [String: Any])
        #expect(categories["outOfMemory"] as? Int == 1)
        #expect(categories["systemMemoryKills"] as? Int == 2)
        let one = try Self.json(
            try BuiltCommandTests.run(
                try BuiltCommandTests.binary(),
                ["report", "--format", "json", "--app", "SnapCollage", folder.path]
            ).stdout
        )
        let oneCategories = try #require(one["categories"] as? [String: Any])
        #expect(oneCategories["outOfMemory"] as? Int == 1)
        #expect(oneCategories["systemMemoryKills"] as? Int == 1)
        let filters = try #require(one["filters"] as? [String: Any])
        #expect(filters["apps"] as? [String] == ["SnapCollage"])
    }
}
