import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import Symbolication

/// What `apm-inspect translate` makes of one input's bytes: Apple's text of each crash in it, and what to tell the
/// user on the way, in the order it arose.
///
/// The command reads the file, symbolicates it when asked and prints; which reader translates the bytes, and what
/// is said about them, is decided here.
package enum ReportTranslation {
    /// One thing to say about the input.
    package enum Message: Sendable {
        /// The readers' diagnostics: repairs of a damaged report, whose text is still written.
        case diagnostics([Diagnostic])
        /// Why nothing was translated.
        case error(String, location: SourceLocation?)
        /// A warning about the request rather than the report.
        case warning(String)
    }

    /// One crash's text; the key path names it within a MetricKit payload.
    package struct Report: Sendable {
        package var keyPath: String?
        package var text: String
    }

    /// The texts and the messages of one input.
    package struct Result: Sendable {
        /// The texts, or nil when the input gave none (an error among ``messages`` says why).
        package var reports: [Report]?
        package var messages: [Message]
    }

    /// The crash diagnostics of a MetricKit payload, each as Apple's text.
    ///
    /// Each is written from the crash report model the reader builds (no `.ips` JSON behind it, so only what the
    /// model keeps is written).
    ///
    /// - Parameters:
    ///   - bytes: the payload.
    ///   - layout: the layout asked for; nil for each report's platform.
    ///   - dsymGiven: whether dSYMs were given: they do not apply to MetricKit payloads, which is worth a warning.
    /// - Returns: one text per crash diagnostic; none when the payload cannot be read or holds no crash.
    package static func metricKit(_ bytes: [UInt8], layout: AppleTextLayout?, dsymGiven: Bool) -> Result {
        let result: MetricKitReadResult
        do {
            result = try MetricKitReader().read(bytes)
        } catch {
            return Result(reports: nil, messages: [.error(error.message, location: error.location)])
        }
        var messages: [Message] = [.diagnostics(result.diagnostics)]
        let crashes = result.report.crashReports
        guard !crashes.isEmpty else {
            let message =
                "a MetricKit file with \(result.report.holdingsDescription) and no crash: use `apm-inspect inspect`"
            messages.append(.error(message, location: nil))
            return Result(reports: nil, messages: messages)
        }
        if dsymGiven {
            messages.append(
                .warning("--dsym does not apply to MetricKit payloads: the frames are written unsymbolicated")
            )
        }
        let translator = CrashTextTranslator(layout: layout)
        // The header's first lines (incident identifier, reporter key) have no MetricKit source: no blank line
        // stands for them.
        let reports = crashes.map { crash in
            Report(keyPath: crash.keyPath, text: String(translator.translate(crash.report).drop { $0 == "\n" }))
        }
        return Result(reports: reports, messages: messages)
    }

    /// A crash report as Apple's text: a KSCrash report from its own JSON, anything else read as an `.ips`.
    ///
    /// - Parameters:
    ///   - bytes: the report, symbolicated already when the user asked for it.
    ///   - layout: the layout asked for; nil for the report's platform.
    /// - Returns: the text, written for a damaged report too (its diagnostics say what was damaged); none when
    ///   the report cannot be read.
    package static func crash(_ bytes: [UInt8], layout: AppleTextLayout?) -> Result {
        do {
            let translator = CrashTextTranslator(layout: layout)
            let translation: (text: String, diagnostics: [Diagnostic])
            // KSCrash writes Swift and C++ names as the linker spells them: shown demangled, as in every output.
            if let kscrash = try translator.translation(ofKSCrash: bytes, preparing: { $0.demanglingNames() }) {
                translation = kscrash
            } else {
                translation = try translator.translation(of: bytes)
            }
            return Result(
                reports: [Report(keyPath: nil, text: translation.text)],
                messages: [.diagnostics(translation.diagnostics)]
            )
        } catch {
            return Result(reports: nil, messages: [.error(error.message, location: error.location)])
        }
    }
}
