import APMInspectCore
import ArgumentParser
import ReportSources

extension OutputFile {
    /// Refuses, before any work, an output that is one of the inputs, a symbolic link or a folder.
    ///
    /// Says why on standard error, naming `option` and the path escaped, and exits 2 (a usage error).
    static func refuseUnusable(_ path: String, option: String, inputs: Set<FileIdentity>) throws {
        guard let refusal = AtomicOutputFile.refusal(of: path, protecting: inputs) else { return }
        Console.error("apm-inspect: error: \(option) \(TerminalText.escaped(path)): \(refusal.message)")
        throw ExitCode(APMInspect.usageStatus)
    }
}
