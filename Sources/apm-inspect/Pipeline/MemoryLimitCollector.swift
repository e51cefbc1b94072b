import APMInspectCore
import JetsamParsing

/// Reads one file and extracts the memory-limit evidence of a JetsamEvent, if it is one.
struct MemoryLimitCollector: Sendable {
    enum Outcome: Sendable {
        /// A JetsamEvent; `partial` when it was an excerpt or repaired.
        case evidence(MemoryLimitEvidence, partial: Bool)
        /// Some other kind of file: not an error for this command.
        case notJetsam
        case failed(SourceLocation?, String)
    }

    var parser = JetsamParser()

    func evidence(atPath path: String) -> Outcome {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: path)
        } catch {
            return .failed(error.location, error.message)
        }
        let format = ContentSniffer.format(of: bytes)
        guard format == .ips || format == .json else { return .notJetsam }
        let container = IPSContainer(bytes: bytes)
        if let family = container.bugType?.family {
            guard family == .jetsam else { return .notJetsam }
        } else if !JetsamParser.isJetsamEvent(container) {
            return .notJetsam
        }
        do {
            let result = try parser.memoryLimitEvidence(container) { MemoryLimitEvidence.contentHash(bytes) }
            return .evidence(result.evidence, partial: result.isPartial)
        } catch {
            return .failed(error.location, error.message)
        }
    }
}
