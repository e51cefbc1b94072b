import APMInspectCore
import CrashReportParsing

extension FileInspector {
    /// Reads a KSCrash report; nil when the JSON is not one (the caller then reads it as other JSON).
    func inspectKSCrash(bytes: [UInt8], path: String) -> Inspection? {
        let reader = KSCrashReader()
        guard let document = try? JSONDocument(bytes: bytes, options: reader.json) else { return nil }
        let root =
            document.isFragmentList ? document.root.elements.first { KSCrashReader.recognises($0) } : document.root
        guard let root, KSCrashReader.recognises(root) else { return nil }
        do {
            var result = try reader.parse(document)
            if let symbolicator = symbolication?.symbolicator {
                let outcome = symbolicator.symbolicate(result.report)
                result.report = outcome.report
                result.diagnostics += outcome.diagnostics
            }
            return Inspection(
                file: path,
                kind: .kscrash,
                diagnostics: result.diagnostics,
                report: .crash(result.report),
                failure: nil
            )
        } catch {
            return Inspection(
                file: path,
                kind: .kscrash,
                diagnostics: document.diagnostics,
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
    }
}
