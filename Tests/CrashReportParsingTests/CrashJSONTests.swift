import APMInspectCore
import Testing

@testable import CrashReportParsing

@Suite struct CrashJSONTests {
    private static let report = """
        {"bug_type":"309","timestamp":"2023-10-01 12:00:00.00 +0200","os_version":"iPhone OS 17.0 (21A329)","incident_id":"7A2C9E41-0B8D-4F6A-9C3E-5D1B2A4F6E80","app_name":"Lumen","name":"Lumen"}
        {
          "incident" : "7A2C9E41-0B8D-4F6A-9C3E-5D1B2A4F6E80",
          "modelCode" : "iPhone15,2",
          "procName" : "Lumen",
          "pid" : 812,
          "procPath" : "/private/var/containers/Bundle/Application/AB12/Lumen.app/Lumen",
          "bundleInfo" : {"CFBundleIdentifier":"com.example.lumen","CFBundleShortVersionString":"2.3.1","CFBundleVersion":"57"},
          "cpuType" : "ARM-64",
          "captureTime" : "2023-10-01 11:59:58.1234 +0200",
          "osVersion" : {"train":"iPhone OS 17.0","build":"21A329","releaseType":"User"},
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGKILL"},
          "termination" : {"code":2343432205,"flags":6,"namespace":"FRONTBOARD","reasons":["<RBSTerminateContext| domain:10 code:0x8BADF00D","ProcessVisibility: Foreground"]},
          "faultingThread" : 1,
          "threads" : [
            {"id":4001,"queue":"com.apple.main-thread","frames":[{"imageOffset":4096,"symbol":"main","symbolLocation":8,"imageIndex":0}]},
            {"id":4002,"triggered":true,"frames":[{"imageOffset":16,"imageIndex":1,"inline":true},{"imageOffset":16,"imageIndex":1}],
             "threadState":{"flavor":"ARM_THREAD_STATE64","x":[{"value":14987979559889010704}],"esr":{"value":2449473542,"description":"(Data Abort) byte read Translation fault"}}}
          ],
          "usedImages" : [
            {"source":"P","arch":"arm64","base":4294967296,"size":65536,"uuid":"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","path":"/private/var/containers/Bundle/Application/AB12/Lumen.app/Lumen","name":"Lumen"},
            {"source":"S","base":7207194624,"size":5337088,"uuid":"178beeaf-85dc-35a7-b02c-b951eba169ce","path":"/usr/lib/swift/libswiftCore.dylib","name":"libswiftCore.dylib","arch":"arm64e"},
            {"source":"A","base":0,"size":0,"uuid":"00000000-0000-0000-0000-000000000000"}
          ],
          "futureKey" : {"nested":[1,2]}
        }
        """

    @Test func readsEveryModelledField() throws {
        let result = try CrashReportParser().parse(Array(Self.report.utf8))
        let report = result.report
        #expect(report.sourceFormat == .ips309)
        #expect(report.process == "Lumen")
        #expect(report.pid == 812)
        #expect(report.bundleId == "com.example.lumen")
        #expect(report.appVersion == "2.3.1")
        #expect(report.appBuild == "57")
        #expect(report.deviceName == "iPhone 14 Pro")
        #expect(report.osVersion == "iPhone OS 17.0 (21A329)")
        #expect(report.osBuild == "21A329")
        #expect(report.termination?.code == HexValue(0x8bad_f00d))
        #expect(report.termination?.reasons.count == 2)
        #expect(report.crashedThread == 1)
        #expect(report.threads[1].crashed)
        #expect(report.threads[0].id == 4001)
        #expect(report.threads[0].frames[0].address == HexValue(0x1_0000_1000))
        #expect(report.threads[0].frames[0].isAppFrame == true)
        #expect(report.threads[1].frames[0].inlined == true)
        #expect(report.threads[1].registers?.first == .init(name: "x0", value: HexValue(14_987_979_559_889_010_704)))
        #expect(report.threads[1].registers?.last?.description == "(Data Abort) byte read Translation fault")
        #expect(report.binaryImages[0].end == HexValue(0x1_0000_ffff))
        #expect(report.binaryImages[0].uuid == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
        #expect(report.binaryImages[0].isApp)
        #expect(!report.binaryImages[1].isApp)
        #expect(
            report.unknownKeys?["futureKey"]
                == .object([.init(key: "nested", value: .array([.number("1"), .number("2")]))])
        )
        #expect(report.signature?.count == 16)
    }

    @Test func signatureIsStableAndDependsOnTheAppFrames() throws {
        let first = try CrashReportParser().parse(Array(Self.report.utf8)).report.signature
        let again = try CrashReportParser().parse(Array(Self.report.utf8)).report.signature
        let other = try CrashReportParser().parse(
            Array(
                Self.report.replacingFirst(
                    "\"imageOffset\":16,\"imageIndex\":1,\"inline\"",
                    "\"imageOffset\":32,\"imageIndex\":1,\"inline\""
                ).utf8
            )
        ).report.signature
        #expect(first == again)
        #expect(first != other)
    }

    @Test func truncatedJSONKeepsWhatWasRead() throws {
        let cut = String(Self.report.prefix(1300))
        let result = try CrashReportParser().parse(Array(cut.utf8))
        #expect(result.report.process == "Lumen")
        #expect(result.report.isPartial)
        #expect(!result.diagnostics.isEmpty)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, _ replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
}
