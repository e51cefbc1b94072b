import APMInspectCore
import ArgumentParser
import Foundation
import ReportRendering
import ReportSources
import Symbolication

extension BackendEventPrinter {
    /// A printer for a command: lines and the single envelope on standard output, envelope files under `directory`
    /// never written over one of `inputs` (``OutputFile``); crash events held in `spoolFolder` and exported once per
    /// crash when it is given.
    convenience init(
        format: BackendFormat,
        directory: String?,
        inputs: Set<FileIdentity> = [],
        toolVersion: String,
        imageVMAddress: (@Sendable (_ uuid: String, _ arch: String?) -> UInt64?)? = nil,
        linkingCrashesIn spoolFolder: String? = nil
    ) {
        self.init(
            format: format,
            directory: directory,
            toolVersion: toolVersion,
            imageVMAddress: imageVMAddress,
            sink: .console,
            linkingCrashesIn: spoolFolder,
            writeFile: { text, path in OutputFile.write(text, toPath: path, protecting: inputs) }
        )
    }

    /// The `__TEXT` vmaddr of an image by UUID and architecture, from the dSYMs and binaries of `--dsym`: what
    /// Sentry's `image_vmaddr` is, known only where such a file is given.
    static func vmAddresses(from source: any SymbolSource) -> @Sendable (String, String?) -> UInt64? {
        { uuid, arch in
            if case .found(let image) = source.image(uuid: uuid, arch: arch) { return image.textVMAddress }
            return nil
        }
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
