import APMInspectCore

/// Reads one file and extracts the memory-limit evidence of a JetsamEvent, if it is one.
///
/// Files of other kinds are not errors here: a folder of reports holds crash logs and READMEs too.
package struct MemoryLimitCollector: Sendable {
    /// What one file gave.
    package enum Outcome: Sendable, Equatable {
        /// A JetsamEvent; `partial` when it was an excerpt or repaired.
        case evidence(MemoryLimitEvidence, partial: Bool)
        /// Some other kind of file.
        case notJetsam
        /// The file could not be read, or claims to be a JetsamEvent and could not be parsed: why, and the
        /// error's code (in `memory-limits`' JSON as the diagnostic code `input.CODE`).
        case failed(SourceLocation?, String, code: InputError.Code)
    }

    package var parser: JetsamParser

    /// A collector that reads each report with `parser`.
    package init(parser: JetsamParser = JetsamParser()) {
        self.parser = parser
    }

    /// Reads the file at `path` and extracts its evidence.
    package func evidence(atPath path: String) -> Outcome {
        do {
            return evidence(in: try FileReading.contents(atPath: path))
        } catch {
            return .failed(error.location, error.message, code: error.code)
        }
    }

    /// Reads the file named by bytes (a name need not be UTF-8) and extracts its evidence.
    package func evidence(at path: RawPath) -> Outcome {
        do {
            return evidence(in: try FileReading.contents(at: path))
        } catch {
            return .failed(error.location, error.message, code: error.code)
        }
    }

    /// Extracts the evidence of a file already in memory.
    package func evidence(in bytes: [UInt8]) -> Outcome {
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
            return .failed(error.location, error.message, code: error.code)
        }
    }
}
