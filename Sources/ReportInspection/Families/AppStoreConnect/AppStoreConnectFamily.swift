import APMInspectCore
import MetricKitParsing
import Symbolication

/// App Store Connect API diagnostics responses saved as JSON: a signature's `diagnosticLogs` and a build's
/// `diagnosticSignatures` (kind `appStoreConnect`).
///
/// It is asked before the MetricKit families: a logs response holds MetricKit's call-stack trees and
/// `diagnosticMetaData`, which their recognition also matches.
public struct AppStoreConnectFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "App Store Connect diagnostics response" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.appStoreConnect: "App Store Connect"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// A file recognised as a response but unreadable is a failure of kind `appStoreConnect`.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard AppStoreConnectReader.recognise(input.bytes, format: input.format) else { return nil }
        do {
            let result = try AppStoreConnectReader().read(input.bytes)
            var report = result.report
            var diagnostics = result.diagnostics
            if let symbolicator = inspector.symbolicator {
                diagnostics += Self.symbolicate(&report, with: symbolicator)
            }
            return Inspection(
                file: input.path,
                kind: .appStoreConnect,
                diagnostics: diagnostics,
                // After symbolication: the hang classifier reads the names.
                report: .appStoreConnect(report.analyzingHangs(with: MetricKitFamily.hangAnalysis)),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .appStoreConnect, error)
        }
    }

    /// Names the frames Apple left without a symbol from the user's dSYMs, tree by tree.
    private static func symbolicate(_ report: inout AppStoreConnectReport, with symbolicator: ReportSymbolicator)
        -> [Diagnostic]
    {
        var diagnostics: [Diagnostic] = []
        for p in report.products.indices {
            for l in report.products[p].logs.indices {
                var log = report.products[p].logs[l]
                if let tree = log.diagnostic.callTree {
                    let keyPath = log.keyPath + ".callStackTree[0]"
                    let (named, found) = tree.symbolicated(with: symbolicator, keyPath: keyPath)
                    log.diagnostic.callTree = named
                    diagnostics += found
                }
                if let more = log.moreCallTrees {
                    log.moreCallTrees = more.enumerated().map { index, tree in
                        let keyPath = log.keyPath + ".callStackTree[\(index + 1)]"
                        let (named, found) = tree.symbolicated(with: symbolicator, keyPath: keyPath)
                        diagnostics += found
                        return named
                    }
                }
                report.products[p].logs[l] = log
            }
        }
        return diagnostics
    }
}
