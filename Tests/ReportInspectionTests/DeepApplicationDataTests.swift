import APMInspectCore
import ReportInspection
import Testing

/// Data of the application's own shape nested past the JSON depth limit (KSCrash's `user` section, unknown
/// members of an `.ips` body): the report around it is still recognised and read, and the cut is a warning.
@Suite struct DeepApplicationDataTests {
    /// `levels` nested objects, `{"a":{"a":…"leaf"…}}`.
    static func nested(_ levels: Int) -> String {
        String(repeating: "{\"a\":", count: levels) + "\"leaf\"" + String(repeating: "}", count: levels)
    }

    static func kscrash(user: String) -> String {
        """
        {"report":{"id":"4F1D2C3B-0000-4000-8000-000000000001","process_name":"Pebble","timestamp":1700000000,
        "version":"3.1.0","type":"standard"},
        "binary_images":[{"image_addr":4294967296,"image_size":65536,"name":"/var/containers/Pebble.app/Pebble",
        "uuid":"5E0F1A2B-3C4D-3E5F-8A6B-7C8D9E0F1A2B","cpu_type":16777228,"cpu_subtype":0}],
        "crash":{"error":{"type":"signal","signal":{"signal":11,"name":"SIGSEGV","code":0}},
        "threads":[{"index":0,"crashed":true,"backtrace":{"contents":[{"instruction_addr":4294971392,
        "object_addr":4294967296,"object_name":"Pebble"}]}}]},
        "user":\(user)}
        """
    }

    static func ips(extra: String) -> String {
        #"{"bug_type":"309","os_version":"iPhone OS 17.0 (21A329)","name":"Pebble","incident_id":"X"}"# + "\n"
            + """
            {"procName":"Pebble","pid":42,"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},
            "faultingThread":0,"threads":[{"triggered":true,"frames":[{"imageOffset":4096,"imageIndex":0}]}],
            "usedImages":[{"base":4294967296,"size":65536,"name":"Pebble","uuid":"5e0f1a2b-3c4d-3e5f-8a6b-7c8d9e0f1a2b"}],
            "appCustomData":\(extra)}
            """
    }

    static func inspect(_ text: String) -> Inspection {
        ReportInspector().inspect(bytes: Array(text.utf8), path: "deep.json")
    }

    static func cutWarnings(_ inspection: Inspection) -> [Diagnostic] {
        inspection.diagnostics.filter { $0.severity == .warning && $0.code == .jsonTooDeepSkipped }
    }

    /// The finding of issue 38: user data nested past the limit (the file one level deeper than `user`) made the
    /// whole report `unknown`, with no diagnostic.
    @Test(arguments: [128, 300, 5000])
    func deepUserDataInAKSCrashReport(levels: Int) throws {
        let inspection = Self.inspect(Self.kscrash(user: Self.nested(levels)))
        #expect(inspection.kind == .kscrash)
        #expect(inspection.failure == nil)
        #expect(Self.cutWarnings(inspection).count == 1)
        #expect(Self.cutWarnings(inspection).first?.location?.line == 8)
        guard case .crash(let report) = inspection.report else {
            Issue.record("no crash report")
            return
        }
        #expect(report.process == "Pebble")
        #expect(report.threads.first?.frames.count == 1)
        // The upper levels of the user data are kept.
        #expect(report.unknownKeys?["user"]?["a"]?["a"] != nil)
    }

    /// 127 levels under `user` make 128 in the file: the limit itself, read in full.
    @Test(arguments: [20, 127])
    func userDataUpToTheLimitHasNoCut(levels: Int) {
        let inspection = Self.inspect(Self.kscrash(user: Self.nested(levels)))
        #expect(inspection.kind == .kscrash)
        #expect(Self.cutWarnings(inspection).isEmpty)
    }

    @Test(arguments: [128, 5000])
    func deepUnknownMembersInAnIPSBody(levels: Int) throws {
        let inspection = Self.inspect(Self.ips(extra: Self.nested(levels)))
        #expect(inspection.kind == .crashReport)
        #expect(inspection.failure == nil)
        #expect(Self.cutWarnings(inspection).count == 1)
        guard case .crash(let report) = inspection.report else {
            Issue.record("no crash report")
            return
        }
        #expect(report.process == "Pebble")
        #expect(report.threads.first?.frames.count == 1)
    }
}
