import APMInspectCore
import ArgumentParser
import Foundation
import ReportRendering
import ReportSources

extension BackendEventPrinter {
    /// A printer for a command: lines and the single envelope on standard output, envelope files under `directory`
    /// never written over one of `inputs` (``OutputFile``).
    convenience init(format: BackendFormat, directory: String?, inputs: Set<FileIdentity> = [], toolVersion: String) {
        self.init(
            format: format,
            directory: directory,
            toolVersion: toolVersion,
            sink: .console,
            writeFile: { text, path in OutputFile.write(text, toPath: path, protecting: inputs) }
        )
    }

    /// `-o DIR` goes with `--format sentry-envelope` only, and names a folder that exists.
    static func validate(format: InspectFormat, output: String?) throws {
        guard let output else { return }
        guard format == .sentryEnvelope else {
            throw ValidationError("--output applies to --format sentry-envelope only")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--output must name an existing folder: \(TerminalText.escaped(output))")
        }
    }
}
