import APMInspectCore
import Foundation
import HTTPCaptureParsing
import InputMutation

/// The seed inputs of a run: each file read once, sniffed, and mapped for the mutation engine.
struct FuzzCorpus {
    struct Entry {
        var path: String
        /// The family name used in findings and progress (`ips`, `crash-text`, `har`, `pcap`, `sqlite` …).
        var label: String
        var input: MutationInput
    }

    var entries: [Entry]
    /// Files left out, with why.
    var skipped: [(path: String, reason: String)]

    /// The bundled `Corpus/` folder: `./Corpus` first, then the checkout `executable` was built in.
    static func bundledFolder(executable: String) -> String? {
        let manager = FileManager.default
        var candidates = [manager.currentDirectoryPath + "/Corpus"]
        var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("Corpus").path)
            folder.deleteLastPathComponent()
        }
        return candidates.first { path in
            var isDirectory: ObjCBool = false
            return manager.fileExists(atPath: path + "/crash", isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }

    /// Reads `files` (the corpus paths as the caller's walker expanded them).
    ///
    /// The bundled corpus's `expected/` outputs and READMEs are not seeds.
    static func load(files: [String], bundled: Bool, maxInputBytes: Int) -> FuzzCorpus {
        var entries: [Entry] = []
        var skipped: [(String, String)] = []
        for file in files {
            if bundled, file.contains("/expected/") || file.hasSuffix(".md") { continue }
            guard let bytes = try? FileReading.contents(atPath: file) else {
                skipped.append((file, "cannot be read"))
                continue
            }
            guard bytes.count <= maxInputBytes else {
                skipped.append((file, "larger than --max-input-size"))
                continue
            }
            if ZipReader.looksLikeZip(bytes.prefix(4)) {
                let members = machOMembers(ofZip: bytes, path: file, maxInputBytes: maxInputBytes)
                if !members.isEmpty {
                    entries += members
                    continue
                }
            }
            entries.append(Entry(path: file, label: label(of: bytes), input: MutationInput(bytes: bytes)))
        }
        return FuzzCorpus(entries: entries, skipped: skipped)
    }

    /// Most members of one zip taken as seeds.
    static let maxZipMembers = 64

    /// The Mach-O members of a zip (App Store Connect's `appDsyms.zip`: the DWARF files of its dSYMs), each a seed
    /// of its own named `archive:member`: mutating the compressed archive would rarely reach the DWARF.
    static func machOMembers(ofZip bytes: [UInt8], path: String, maxInputBytes: Int) -> [Entry] {
        let limits = ZipReader.Limits(maxEntries: 10_000, expansion: ExpansionLimit(maxBytes: 1 << 30))
        guard let reader = try? ZipReader(bytes: bytes, limits: limits) else { return [] }
        var members: [Entry] = []
        for entry in reader.entries where !entry.isDirectory && entry.uncompressedSize <= UInt64(maxInputBytes) {
            guard members.count < maxZipMembers, let contents = try? reader.contents(of: entry),
                MachOMagic(contents)?.isPlausible == true
            else { continue }
            members.append(Entry(path: path + ":" + entry.name, label: "mach-o", input: MutationInput(bytes: contents)))
        }
        return members
    }

    /// The family name of `bytes`, finer than ``InputFamily`` where the readers tell captures apart.
    static func label(of bytes: [UInt8]) -> String {
        if MachOMagic(bytes)?.isPlausible == true { return "mach-o" }
        if DemanglerProbe.nameList(bytes) != nil { return "mangled-names" }
        let format = ContentSniffer.format(of: bytes)
        switch HTTPCaptureReader.recognise(bytes) {
        case .httpArchive: return format == .json ? "har" : "har-\(format.rawValue)"
        case .charlesSession: return "charles-\(format.rawValue)"
        default: break
        }
        switch format {
        case .ips: return "ips"
        case .crashText: return "crash-text"
        default: return format.rawValue
        }
    }

    /// The module whose parser reads inputs of `kind` (as the worker last reported it), or, when the worker never
    /// answered for the file, the module its family label points to.
    static func parser(forKind kind: String, label: String) -> String {
        switch kind {
        case "jetsamEvent": "JetsamParsing"
        case "crashReport", "kscrash", "systemWatchdog", "resourceReport": "CrashReportParsing"
        case "watchdogTermination": "WatchdogAnalysis"
        case "powerLog": "PowerLogReading"
        case "httpArchive", "charlesSession", "packetCapture": "HTTPCaptureParsing"
        case FuzzOracle.machOKind, FuzzOracle.namesKind: "Symbolication"
        case "": parser(forLabel: label)
        default: "APMInspectCore"
        }
    }

    private static func parser(forLabel label: String) -> String {
        switch label {
        case "crash-text": "CrashReportParsing"
        case "sqlite", "gzip": "PowerLogReading"
        case "pcap", "pcapng", "zlib": "HTTPCaptureParsing"
        case "mach-o", "mangled-names": "Symbolication"
        default: label.hasPrefix("har") || label.hasPrefix("charles") ? "HTTPCaptureParsing" : "APMInspectCore"
        }
    }
}
