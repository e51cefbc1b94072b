import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import Symbolication

/// A resolver over a table of functions, each with an optional inlined range: what the DWARF index answers,
/// without a binary.
struct TableResolver: AddressResolver {
    struct Function {
        var name: String
        var start: UInt64
        var end: UInt64
        var file: String
        var line: Int
        /// An inlined callee: (name, start, end, file, line); its call site is `callLine` in the function.
        var inlined: (name: String, start: UInt64, end: UInt64, file: String, line: Int, callLine: Int)?
    }

    var functions: [Function]

    func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
        guard let function = functions.first(where: { $0.start <= fileAddress && fileAddress < $0.end }) else {
            return []
        }
        var chain: [SymbolicatedLocation] = []
        var line = function.line
        if let inner = function.inlined, inner.start <= fileAddress && fileAddress < inner.end {
            chain.append(
                SymbolicatedLocation(
                    symbol: inner.name,
                    symbolOffset: fileAddress - inner.start,
                    file: inner.file,
                    line: inner.line,
                    column: 5,
                    isInlined: true
                )
            )
            line = inner.callLine
        }
        chain.append(
            SymbolicatedLocation(
                symbol: function.name,
                symbolOffset: fileAddress - function.start,
                file: function.file,
                line: line,
                column: 3
            )
        )
        return chain
    }
}

/// A symbol source over a fixed table of UUIDs, counting its lookups.
struct TableSource: SymbolSource {
    var images: [String: SymbolLookup]

    func image(uuid: String, arch: String?) -> SymbolLookup { images[uuid] ?? .missing }
}

/// The sample reports: an iOS app `Demo` loaded at 0x104a00000 whose `__TEXT` vmaddr is 0x100000000.
enum SampleReports {
    static let appUUID = "4c4c448655553144a1752df7479ac8fa"

    /// main at 0x100008f00 with `scale` inlined at 0x100008f20..<0x100008f30 (line 12 of main.c calls it);
    /// compute starts exactly at 0x100008e00, run precedes it.
    static let resolver = TableResolver(functions: [
        .init(name: "run", start: 0x1_0000_8D80, end: 0x1_0000_8E00, file: "/Demo/src/main.c", line: 30),
        .init(name: "compute", start: 0x1_0000_8E00, end: 0x1_0000_8F00, file: "/Demo/src/main.c", line: 20),
        .init(
            name: "main",
            start: 0x1_0000_8F00,
            end: 0x1_0000_8F80,
            file: "/Demo/src/main.c",
            line: 10,
            inlined: ("$s4Demo5scaleyS2iF", 0x1_0000_8F20, 0x1_0000_8F30, "/Demo/src/scale.h", 4, 12)
        ),
    ])

    static let source = TableSource(images: [
        appUUID: .found(SymbolImage(textVMAddress: 0x1_0000_0000, resolver: resolver, origin: "Demo.dSYM"))
    ])

    static let demangle: @Sendable (String) -> String? = { $0 == "$s4Demo5scaleyS2iF" ? "scale(_:)" : nil }

    static let text = """
        Incident Identifier: 6B1E5C1A-0000-4000-8000-000000000001
        Hardware Model:      iPhone14,2
        Process:             Demo [4242]
        Path:                /private/var/containers/Bundle/Application/0A0B/Demo.app/Demo
        Identifier:          com.example.demo
        Version:             1.0 (1)
        Code Type:           ARM-64 (Native)
        Role:                Foreground
        Parent Process:      launchd [1]
        Date/Time:           2026-11-25 04:00:00.000 +0000
        OS Version:          iPhone OS 16.1 (20B82)
        Report Version:      104

        Exception Type:  EXC_CRASH (SIGABRT)
        Exception Codes: 0x0000000000000000, 0x0000000000000000
        Triggered by Thread:  0

        Thread 0 Crashed:
        0   libsystem_kernel.dylib        \t0x00000001e0a2e160 __pthread_kill + 8
        1   Demo                          \t0x0000000104a08f2c 0x104a00000 + 36652
        2   Demo                          \t0x0000000104a08e10 0x104a00000 + 36368
        3   dyld                          \t0x00000001c1f4b344 start + 1860

        Thread 1:
        0   Demo                          \t0x0000000104a08e00 0x104a00000 + 36352
        1   Other                         \t0x0000000105000100 0x105000000 + 256

        Binary Images:
        0x104a00000 - 0x104a0ffff Demo arm64  <4c4c448655553144a1752df7479ac8fa> /private/var/containers/Bundle/Application/0A0B/Demo.app/Demo
        0x105000000 - 0x10500ffff Other arm64  <0123456789abcdef0123456789abcdef> /private/var/containers/Bundle/Application/0A0B/Demo.app/Frameworks/Other.framework/Other
        0x1c1f30000 - 0x1c1fb3fff dyld arm64e  <0a1b2c3d0a1b2c3d0a1b2c3d0a1b2c3d> /usr/lib/dyld
        0x1e0a2b000 - 0x1e0a62fff libsystem_kernel.dylib arm64e  <a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4> /usr/lib/system/libsystem_kernel.dylib

        """

    /// The same crash as a bug_type 309 `.ips`.
    static let ips = """
        {"app_name":"Demo","timestamp":"2026-11-25 04:00:00.00 +0000","app_version":"1.0","slice_uuid":"4c4c4486-5555-3144-a175-2df7479ac8fa","build_version":"1","platform":2,"bundleID":"com.example.demo","bug_type":"309","os_version":"iPhone OS 16.1 (20B82)","incident_id":"6B1E5C1A-0000-4000-8000-000000000001","name":"Demo"}
        {
          "uptime" : 1000,
          "procRole" : "Foreground",
          "modelCode" : "iPhone14,2",
          "procName" : "Demo",
          "procPath" : "\\/private\\/var\\/containers\\/Bundle\\/Application\\/0A0B\\/Demo.app\\/Demo",
          "pid" : 4242,
          "cpuType" : "ARM-64",
          "osVersion" : {"train":"iPhone OS 16.1","build":"20B82","releaseType":"User"},
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","type":"EXC_CRASH","signal":"SIGABRT"},
          "faultingThread" : 0,
          "threads" : [{"triggered":true,"id":1,"queue":"com.apple.main-thread","frames":[{"imageOffset":12640,"symbol":"__pthread_kill","symbolLocation":8,"imageIndex":2},{"imageOffset":36652,"imageIndex":0},{"imageOffset":36368,"imageIndex":0}]},{"id":2,"frames":[{"imageOffset":36352,"imageIndex":0},{"imageOffset":256,"imageIndex":1}]}],
          "usedImages" : [
          {"source":"P","arch":"arm64","base":4372561920,"size":65536,"uuid":"4c4c4486-5555-3144-a175-2df7479ac8fa","path":"\\/private\\/var\\/containers\\/Bundle\\/Application\\/0A0B\\/Demo.app\\/Demo","name":"Demo"},
          {"source":"P","arch":"arm64","base":4378853376,"size":65536,"uuid":"01234567-89ab-cdef-0123-456789abcdef","path":"\\/private\\/var\\/containers\\/Bundle\\/Application\\/0A0B\\/Demo.app\\/Frameworks\\/Other.framework\\/Other","name":"Other"},
          {"source":"P","arch":"arm64e","base":8063725568,"size":229376,"uuid":"a1b2c3d4-a1b2-c3d4-a1b2-c3d4a1b2c3d4","path":"\\/usr\\/lib\\/system\\/libsystem_kernel.dylib","name":"libsystem_kernel.dylib"}
        ],
          "vmSummary" : "kept as written"
        }
        """

    static func parse(_ text: String) throws -> CrashReport {
        try CrashReportParser().parse(Array(text.utf8)).report
    }
}

@Suite struct ReportSymbolicatorTests {
    private let symbolicator = ReportSymbolicator(source: SampleReports.source, demangle: SampleReports.demangle)

    @Test func resolvesAppFramesWithInlineChainsAndReturnAddressStepping() throws {
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = symbolicator.symbolicate(report)
        let crashed = outcome.report.threads[0].frames
        // Frame 1 is a return address: 0x100008f2c − 1 lies in the inlined range of scale.
        #expect(crashed.count == 5)
        #expect(crashed[1].symbol == "scale(_:)")
        #expect(crashed[1].mangledSymbol == "$s4Demo5scaleyS2iF")
        #expect(crashed[1].inlined == true)
        #expect(crashed[1].symbolOffset == 0xC)
        #expect(crashed[1].file == "/Demo/src/scale.h")
        #expect(crashed[1].line == 4)
        #expect(crashed[2].symbol == "main")
        #expect(crashed[2].mangledSymbol == nil)
        #expect(crashed[2].inlined == nil)
        #expect(crashed[2].symbolOffset == 0x2C)
        #expect(crashed[2].line == 12)
        #expect(crashed[1].address == crashed[2].address)
        #expect(crashed[3].symbol == "compute")
        #expect(crashed[3].symbolOffset == 0x10)
        // System frames keep what the report said; indices follow the new order.
        #expect(crashed[0].symbol == "__pthread_kill")
        #expect(crashed[4].symbol == "start")
        #expect(crashed.map(\.index) == [0, 1, 2, 3, 4])
        #expect(outcome.threadOrigins[0] == [0, 1, 1, 2, 3])
        #expect(outcome.resolvedFrames == 3)
    }

    @Test func firstFrameOfAThreadKeepsItsPC() throws {
        // 0x100008e00 is the first byte of compute: stepped back it would land in run.
        let outcome = symbolicator.symbolicate(try SampleReports.parse(SampleReports.text))
        let frame = outcome.report.threads[1].frames[0]
        #expect(frame.symbol == "compute")
        #expect(frame.symbolOffset == 0)
    }

    @Test func anImageWithoutDebugInformationIsReportedOncePerReport() throws {
        var text = SampleReports.text
        // A second frame in Other, so the image is met twice.
        text = text.replacingOccurrences(
            of: "1   Other                         \t0x0000000105000100 0x105000000 + 256",
            with: "1   Other                         \t0x0000000105000100 0x105000000 + 256\n"
                + "2   Other                         \t0x0000000105000200 0x105000000 + 512"
        )
        let outcome = symbolicator.symbolicate(try SampleReports.parse(text))
        #expect(outcome.diagnostics.count == 1)
        #expect(outcome.diagnostics.first?.code == .symbolicateMissingDSYM)
        let position = try #require(outcome.report.binaryImages.firstIndex { $0.name == "Other" })
        #expect(outcome.diagnostics.first?.location?.keyPath == "binaryImages[\(position)]")
        #expect(outcome.diagnostics.first?.severity == .warning)
        #expect(outcome.report.threads[1].frames[1].symbol == nil)
    }

    @Test func aBrokenDSYMLeavesTheReportUnsymbolicatedWithADiagnostic() throws {
        let broken = TableSource(images: [
            SampleReports.appUUID: .failed(SymbolicationError(.malformedDWARF, "abbreviation 7 missing"))
        ])
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = ReportSymbolicator(source: broken).symbolicate(report)
        #expect(!outcome.isChanged)
        #expect(outcome.report.threads[0].frames == report.threads[0].frames)
        #expect(outcome.diagnostics.contains { $0.code == .symbolicateUnreadableDSYM })
        #expect(outcome.report.signature == report.signature)
    }

    @Test func framesWithSymbolsStayUnlessForced() throws {
        // A resolver that knows the system image too: only --force lets it replace Apple's symbol.
        let kernel = TableResolver(functions: [
            .init(name: "__pthread_kill_resolved", start: 0x1_8000_3150, end: 0x1_8000_3170, file: "/k.c", line: 1)
        ])
        var images = SampleReports.source.images
        images["a1b2c3d4a1b2c3d4a1b2c3d4a1b2c3d4"] = .found(
            SymbolImage(textVMAddress: 0x1_8000_0000, resolver: kernel, origin: "kernel")
        )
        let report = try SampleReports.parse(SampleReports.text)
        let kept = ReportSymbolicator(source: TableSource(images: images)).symbolicate(report)
        #expect(kept.report.threads[0].frames[0].symbol == "__pthread_kill")
        let forced = ReportSymbolicator(source: TableSource(images: images), force: true).symbolicate(report)
        #expect(forced.report.threads[0].frames[0].symbol == "__pthread_kill_resolved")
        #expect(forced.report.threads[0].frames[0].symbolOffset == 0x10)
    }

    @Test func theSignatureIsRecomputedOnResolvedNames() throws {
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = symbolicator.symbolicate(report)
        #expect(outcome.report.signature != nil)
        #expect(outcome.report.signature != report.signature)
        #expect(outcome.report.signatureFrames?.first == "Demo`scale(_:)")
        // Two builds' reports at different load addresses group together once symbolicated.
        let moved = SampleReports.text
            .replacingOccurrences(of: "0x0000000104a08", with: "0x0000000104b08")
            .replacingOccurrences(of: "0x104a00000", with: "0x104b00000")
            .replacingOccurrences(of: "0x104a0ffff", with: "0x104b0ffff")
        let movedOutcome = symbolicator.symbolicate(try SampleReports.parse(moved))
        #expect(movedOutcome.report.signature == outcome.report.signature)
    }

    @Test func addressArithmeticStripsPointerAuthentication() {
        // An arm64e return address signed in bits 47…63.
        let signed: UInt64 = 0x8A1D_0001_04A0_8F2C
        #expect(
            ReportSymbolicator.fileAddress(runtime: signed, base: 0x1_04A0_0000, textVMAddress: 0x1_0000_0000)
                == 0x1_0000_8F2C
        )
        #expect(ReportSymbolicator.fileAddress(runtime: 0x1000, base: 0x2000, textVMAddress: 0) == nil)
        #expect(ReportSymbolicator.fileAddress(runtime: 0x7FFF_FFFF_FFFF, base: 0, textVMAddress: UInt64.max) == nil)
    }

    @Test func jsonReportsResolveTheSameWay() throws {
        let report = try SampleReports.parse(SampleReports.ips)
        #expect(report.sourceFormat == .ips309)
        let outcome = symbolicator.symbolicate(report)
        let symbols = outcome.report.threads[0].frames.map(\.symbol)
        #expect(symbols == ["__pthread_kill", "scale(_:)", "main", "compute"])
        #expect(outcome.report.threads[1].frames[0].symbol == "compute")
        #expect(outcome.diagnostics.count == 1)
    }
}
