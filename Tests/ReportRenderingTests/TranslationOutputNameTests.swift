import Testing

@testable import ReportRendering

/// `translate -o FOLDER` names each text after its input, never a path, numbered when two inputs share a name.
@Suite("translate: output names")
struct TranslationOutputNameTests {
    @Test("the report's name without .ips, .ips.gz or a folder; numbered on a clash; no hidden or control name")
    func names() {
        var taken: Set<String> = []
        #expect(TranslationRun.outputName(for: "a/b/Demo.ips", taken: &taken) == "Demo.crash")
        #expect(TranslationRun.outputName(for: "other/Demo.ips.gz", taken: &taken) == "Demo-2.crash")
        #expect(TranslationRun.outputName(for: "x/App.IPS.GZ", taken: &taken) == "App.crash")
        #expect(TranslationRun.outputName(for: "notes.gz", taken: &taken) == "notes.gz.crash")
        #expect(TranslationRun.outputName(for: "-", taken: &taken) == "stdin.crash")
        #expect(TranslationRun.outputName(for: "a/.ips", taken: &taken) == "report.crash")
        #expect(TranslationRun.outputName(for: "a/b\u{1}c.ips", taken: &taken) == "b_c.crash")
        #expect(TranslationRun.outputName(for: "p.json", taken: &taken, part: 1) == "p-1.crash")
    }
}
