import APMInspectCore
import Foundation
import PowerLogReading
import RenderingTestSupport
import Testing

@testable import ReportRendering

/// `energy --format json` of one database writes its battery rows through a spool as they are read: the document
/// is byte for byte the one encoded from the full read.
@Suite struct EnergyStreamedJSONTests {
    @Test(arguments: [
        "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL",
        "Corpus/powerlog/ios8_BLMAppEnergyBreakdown_N51AP_12B411.PLSQL",
    ])
    func streamedDocumentIsTheFullReadsDocument(relative: String) throws {
        let path = CorpusInput.url(relative).path
        let collector = OutputCollector()
        let run = EnergyRun(paths: [path], format: .json, top: 15, plot: nil, sink: collector.sink)
        let failed = try run.run(run.files(), protecting: [])
        let full = try PowerLogReader().read(paths: [path])
        let document = EnergyDocument(
            files: [path],
            kind: .powerLog,
            diagnostics: full.diagnostics,
            report: full.report
        )
        #expect(!failed)
        #expect(collector.errors.isEmpty)
        if relative.contains("ios15") { #expect((full.report.battery?.samples.count ?? 0) > 10) }
        #expect(collector.output == (try JSONOutput.encode(document, pretty: true)) + "\n")
    }
}
