import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// Symbols, JSON blocks and unknown JSON members are kept as the report's bytes until read; read, compared and
/// encoded they must be exactly what the eager model held.
@Suite struct LazyModelTests {
    private static let body = """
        {
          "procName" : "Lumen",
          "exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},
          "faultingThread" : 0,
          "threads" : [{"triggered":true,"frames":[
            {"imageOffset":16,"symbol":"-[LMNFeed reload:]","symbolLocation":8,"imageIndex":0},
            {"imageOffset":32,"symbol":"caf\\u00e9 \\"quoted\\"","symbolLocation":4,"imageIndex":0},
            {"imageOffset":48,"symbol":"short","imageIndex":0,"sourceFile":"Feed\\/Reload.swift","sourceLine":7},
            {"imageOffset":64,"symbol":"other","imageIndex":0,"sourceFile":"LMNFeed.m","sourceLine":12}]}],
          "usedImages" : [
            {"source":"P","base":4294967296,"size":65536,"name":"Lumen","path":"/Lumen.app/Lumen",
             "uuid":"0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"},
            {"source":"S","base":8589934592,"size":4096,"name":"libA.dylib","uuid":"AB\\u002dCD"},
            {"source":"S","base":8589938688,"size":4096,"name":"libB.dylib","uuid":12345}],
          "vmSummary" : "ReadOnly portion of Libraries: Total=1.1G\\nWritable regions: Total=1.4G\\r\\n\\nREGION TYPE   SIZE\\n\\n",
          "sharedCache" : {"base":6442450944,"size":3221225472,"uuid":"5c6e7a12-3b4f-4a5e-9d8c-7b6a5f4e3d2c"},
          "trialInfo" : {"rollouts":[{"rolloutId":"6246d6a916a70b047e454124","factorPackIds":{},"deploymentId":240000011}],"experiments":[]},
          "flag" : true,
          "nothing" : null,
          "count" : 12345678901234567890,
          "label" : "a \\"b\\" \\/ c"
        }
        """

    private func parse(_ text: String) throws -> CrashReport {
        try CrashReportParser().parse(Array(text.utf8)).report
    }

    @Test func jsonSymbolsReadAsWrittenIncludingEscapedOnes() throws {
        let frames = try #require(try parse(Self.body).threads.first?.frames)
        #expect(frames.map(\.symbol) == ["-[LMNFeed reload:]", "café \"quoted\"", "short", "other"])
        #expect(frames.map(\.file) == [nil, nil, "Feed/Reload.swift", "LMNFeed.m"])
        // Both stay windows on the bytes; the escaped one is decoded when read.
        guard case .window = frames[0].symbolText, case .json = frames[1].symbolText else {
            Issue.record("symbols should be kept as windows")
            return
        }
        // One reference to the document's bytes serves all of a frame's windows.
        #expect(frames[0].source != nil && frames[0].source === frames[1].source)
    }

    @Test func symbolsCompareAndEncodeAsText() throws {
        let frame = try #require(try parse(Self.body).threads.first?.frames.first)
        var copy = frame
        copy.symbol = "-[LMNFeed reload:]"
        #expect(copy == frame)
        copy.symbol = "-[LMNFeed reload]"
        #expect(copy != frame)
        let decoded = try JSONDecoder().decode(CrashReport.Frame.self, from: JSONEncoder().encode(frame))
        #expect(decoded == frame)
        #expect(decoded.symbol == "-[LMNFeed reload:]")
    }

    @Test func textSymbolsAreWindowsExceptForCutOutModules() throws {
        let text = """
            Process: Quill [1]
            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001e3d0e42c __pthread_kill + 8
            1   Quill                         \t0x0000000100e0c000 QLDocument.save(to:) (in Quill) + 44
            2   Quill                         \t0x0000000100e0d000 0x100e00000 + 53248
            3   Quill                         \t0x0000000100e0e000 QLView.draw() + 12 (QLView.swift:41:7)

            """
        let frames = try #require(try parse(text).threads.first?.frames)
        #expect(frames.map(\.symbol) == ["__pthread_kill", "QLDocument.save(to:)", nil, "QLView.draw()"])
        #expect(frames.map(\.symbolOffset) == [8, 44, nil, 12])
        #expect(frames.map(\.file) == [nil, nil, nil, "QLView.swift"])
        #expect(frames[3].line == 41 && frames[3].column == 7)
        guard case .window = frames[0].symbolText, case .text = frames[1].symbolText,
            case .window = frames[0].rawLine
        else {
            Issue.record("symbols should be windows unless rebuilt from pieces of the line")
            return
        }
    }

    @Test func uuidsAreNormalisedWhenRead() throws {
        let images = try parse(Self.body).binaryImages
        #expect(images.map(\.uuid) == ["0a1b2c3d4e5f60718293a4b5c6d7e8f9", "abcd", "12345"])
        guard case .uuid = images[0].uuidText, case .text = images[1].uuidText, case .uuid = images[2].uuidText else {
            Issue.record("plain UUIDs should be windows, escaped ones normalised while reading")
            return
        }
        var copy = images[0]
        copy.uuid = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
        #expect(copy == images[0])
        let decoded = try JSONDecoder().decode(CrashReport.BinaryImage.self, from: JSONEncoder().encode(images[0]))
        #expect(decoded == images[0])
        #expect(decoded.uuid == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")

        let text = """
            Process: Quill [1]
            Binary Images:
            0x100e00000 - 0x100e0ffff Quill arm64  <7F3A9C2E-41B8-3D6F-A5E0-9C1B2D3E4F50> /var/Quill.app/Quill
            0x1e3d00000 - 0x1e3d3ffff libsystem_kernel.dylib arm64e  <ÉCLAIR-1> /usr/lib/system/libsystem_kernel.dylib

            """
        let textImages = try parse(text).binaryImages
        #expect(textImages.map(\.uuid) == ["7f3a9c2e41b83d6fa5e09c1b2d3e4f50", "éclair1"])
    }

    /// Image paths stay windows; app images are still found, also when an escape hides `.app` from the bytes or
    /// the executable lies outside any bundle.
    @Test func imagePathsAreReadWhenAskedAndAppImagesStillFound() throws {
        func report(procPath: String, paths: [String]) throws -> CrashReport {
            let images = paths.enumerated().map { k, path in
                #"{"source":"P","base":\#(4_294_967_296 + k * 65536),"size":65536,"name":"img\#(k)","path":"\#(path)"}"#
            }
            let body =
                #"{"procName":"Tool","procPath":"\#(procPath)","threads":[],"usedImages":[\#(images.joined(separator: ","))]}"#
            return try CrashReportParser().parse(Array(body.utf8)).report
        }
        let bundled = try report(
            procPath: #"\/var\/containers\/Bundle\/Application\/AB\/Lumen.app\/Lumen"#,
            paths: [
                #"\/var\/containers\/Bundle\/Application\/AB\/Lumen.app\/Lumen"#,
                #"\/usr\/lib\/system\/libsystem_kernel.dylib"#,
                #"\/var\/containers\/Bundle\/Application\/AB\/Lumen\u002eapp\/Frameworks\/Kit.framework\/Kit"#,
                #"\/System\/Library\/Frameworks\/UIKit.framework\/UIKit"#,
                #"\/Applications\/Helper\u002eapp\/Contents\/MacOS\/Helper"#,
            ]
        )
        #expect(
            bundled.binaryImages.map(\.path) == [
                "/var/containers/Bundle/Application/AB/Lumen.app/Lumen", "/usr/lib/system/libsystem_kernel.dylib",
                "/var/containers/Bundle/Application/AB/Lumen.app/Frameworks/Kit.framework/Kit",
                "/System/Library/Frameworks/UIKit.framework/UIKit", "/Applications/Helper.app/Contents/MacOS/Helper",
            ]
        )
        // The last path spells its `.app` with an escape: only reading it shows it is in a bundle.
        #expect(bundled.binaryImages.map(\.isApp) == [true, false, true, false, true])
        guard case .json = bundled.binaryImages[1].pathText else {
            Issue.record("an escaped path should be kept as a window")
            return
        }
        // A command-line tool: the executable is outside any bundle, so it is found by its path.
        let tool = try report(
            procPath: #"\/usr\/local\/bin\/tool"#,
            paths: [#"\/usr\/local\/bin\/tool"#, #"\/usr\/lib\/libc.dylib"#]
        )
        #expect(tool.binaryImages.map(\.isApp) == [true, false])
        // An executable among the system paths: system images are then compared with it, not ruled out.
        let finder = try report(
            procPath: #"\/System\/Library\/CoreServices\/Finder"#,
            paths: [#"\/System\/Library\/CoreServices\/Finder"#, #"\/usr\/lib\/libc.dylib"#]
        )
        #expect(finder.binaryImages.map(\.isApp) == [true, false])
    }

    @Test func jsonBlocksSplitWhenReadAsTheEagerSplitDid() throws {
        let report = try parse(Self.body)
        let block = try #require(report.blocks.first { $0.title == "VM Region Summary" })
        // `\r\n` stays one line ending with `\r` inside the line, a blank line inside is kept, trailing ones are not.
        #expect(
            block.lines == [
                "ReadOnly portion of Libraries: Total=1.1G", "Writable regions: Total=1.4G\r\n", "REGION TYPE   SIZE",
            ]
        )
        var appended = block
        appended.append(line: "extra")
        #expect(appended.lines == block.lines + ["extra"])
        #expect(appended != block)
        #expect(CrashReport.Block(title: block.title, lines: block.lines) == block)
        let decoded = try JSONDecoder().decode(CrashReport.Block.self, from: JSONEncoder().encode(block))
        #expect(decoded == block)
    }

    @Test func unknownMembersReadAsTheEagerValues() throws {
        let report = try parse(Self.body)
        let document = try JSONDocument(text: Self.body)
        let root = document.root
        let members: [(String, JSONElement?)] = [
            ("sharedCache", root.member("sharedCache")), ("trialInfo", root.member("trialInfo")),
            ("flag", root.member("flag")), ("nothing", root.member("nothing")), ("count", root.member("count")),
            ("label", root.member("label")),
        ]
        let eager = JSONValue.object(
            try members.map { key, element in JSONValue.Member(key: key, value: try #require(element).materialized) }
        )
        #expect(report.unknownKeys == eager)
        #expect(report.unknownKeys?["label"] == .string("a \"b\" / c"))
        #expect(report.unknownKeys?["count"] == .number("12345678901234567890"))
        var held = report
        held.unknownKeys = eager
        #expect(held == report)
    }

    @Test func unknownMembersEncodeAndDecodeAsAnOptionalValue() throws {
        let report = try parse(Self.body)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect((object["unknownKeys"] as? [String: Any])?["flag"] as? Bool == true)
        // Foundation's decoder does not keep member order, so the round trip is compared as sorted JSON.
        let decoded = try JSONDecoder().decode(CrashReport.self, from: encoded)
        #expect(try encoder.encode(decoded) == encoded)
        var eager = report
        eager.unknownKeys = report.unknownKeys
        #expect(try encoder.encode(eager) == encoded)

        var none = report
        none.unknownKeys = nil
        let bare = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(none)) as? [String: Any]
        )
        #expect(bare["unknownKeys"] == nil)
        #expect(try JSONDecoder().decode(CrashReport.self, from: JSONEncoder().encode(none)).unknownKeys == nil)
    }

    @Test func repairedBodiesKeepTheRepairedValues() throws {
        // A trailing comma needs the repairing parser: the members are made into values while reading.
        let text = """
            {"procName":"Lumen","threads":[],"futureKey":{"list":[1,2,],},}
            """
        let report = try parse(text)
        let list = JSONValue.object([.init(key: "list", value: .array([.number("1"), .number("2")]))])
        #expect(report.unknownKeys == .object([.init(key: "futureKey", value: list)]))
    }
}
