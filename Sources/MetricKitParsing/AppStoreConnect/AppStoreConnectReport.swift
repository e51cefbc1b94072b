import APMInspectCore

/// An App Store Connect API response about an app's diagnostics, saved as JSON: the logs of one diagnostic
/// signature (`GET /v1/diagnosticSignatures/{id}/logs`, a `diagnosticLogs` object) or the signatures of a build
/// (`GET /v1/builds/{id}/diagnosticSignatures`).
///
/// These are Apple's aggregates of what MetricKit sends from the field (hangs, disk writes, slow launches), so each
/// log is read into a `MetricKitDiagnostic` with its call-stack tree: the MetricKit views, folded stacks and hang
/// analysis read them as they read a payload's diagnostics.
public struct AppStoreConnectReport: Sendable, Equatable, Codable {
    /// Which endpoint's response the file holds.
    package enum Response: String, Sendable, Equatable, Codable {
        case diagnosticLogs
        case diagnosticSignatures
    }

    /// One `productData` entry: the logs and insights of one signature.
    package struct Product: Sendable, Equatable, Codable {
        /// Where the entry is in the file (`productData[0]`).
        package var keyPath: String
        package var signatureId: String?
        package var insights: [Insight]
        package var logs: [Log]
        package var unknownKeys: JSONValue?

        package init(keyPath: String) {
            self.keyPath = keyPath
            self.insights = []
            self.logs = []
        }
    }

    /// A `diagnosticInsights` entry: Apple's advice on the signature.
    package struct Insight: Sendable, Equatable, Codable {
        /// `insightsCategory` (`SQLiteSpill` …).
        package var category: String?
        /// `insightsString`.
        package var text: String?
        /// `insightsURL`.
        package var url: String?
        package var unknownKeys: JSONValue?

        package init() {}
    }

    /// A `diagnosticLogs` entry: one sampled occurrence, its metadata and call stacks.
    package struct Log: Sendable, Equatable, Codable {
        package var keyPath: String
        /// `diagnosticMetaData.event` as written (`Disk Writes`, `Hang`, `Launch`).
        package var event: String?
        /// `diagnosticMetaData.eventDetail` as written.
        package var eventDetail: String?
        /// The log as a MetricKit diagnostic: its kind from ``event`` (``MetricKitDiagnostic/Kind/callStackTree``
        /// when the event is not one this reader knows), metadata, `writesCaused` and the first call-stack tree.
        package var diagnostic: MetricKitDiagnostic
        /// The trees of `callStackTree` after the first, when it holds more than one.
        package var moreCallTrees: [MetricKitCallTree]?
        package var unknownKeys: JSONValue?

        package init(keyPath: String, diagnostic: MetricKitDiagnostic) {
            self.keyPath = keyPath
            self.diagnostic = diagnostic
        }
    }

    /// One `data` entry of a signatures response.
    package struct Signature: Sendable, Equatable, Codable {
        package var keyPath: String
        package var id: String?
        /// `type` (`diagnosticSignatures`).
        package var type: String?
        /// `attributes.diagnosticType` as written (`DISK_WRITES`, `HANGS`, `LAUNCHES`).
        package var diagnosticType: String?
        /// The MetricKit diagnostic kind ``diagnosticType`` names, when it names one.
        package var kind: MetricKitDiagnostic.Kind?
        /// `attributes.signature`: the frame Apple groups the occurrences by.
        package var signature: String?
        /// `attributes.weight`: the signature's share of its type's occurrences in the build (0.85 is 85 %).
        package var weight: Double?
        /// `attributes.insight`, verbatim (a newer API's object).
        package var insight: JSONValue?
        /// `relationships`, verbatim (links to the logs).
        package var relationships: JSONValue?
        package var unknownKeys: JSONValue?

        package init(keyPath: String) {
            self.keyPath = keyPath
        }
    }

    package var response: Response
    /// `version` of a logs response.
    package var version: String?
    package var products: [Product]
    package var signatures: [Signature]
    /// Logs (or signatures) over the file by the diagnostic kind they map to (`hang`: 3); kinds absent are absent.
    package var kindCounts: [String: Int]
    /// `links` and `meta` of a signatures response (paging), verbatim.
    package var links: JSONValue?
    package var meta: JSONValue?
    /// Top-level keys this reader does not model, verbatim.
    package var unknownKeys: JSONValue?

    package init(response: Response) {
        self.response = response
        self.products = []
        self.signatures = []
        self.kindCounts = [:]
    }

    /// Every log, in file order.
    package var logs: [Log] { products.flatMap(\.logs) }

    /// The bundle identifier the logs name first (a signature response names none).
    package var bundleIdentifier: String? {
        products.lazy.flatMap(\.logs).compactMap(\.diagnostic.metadata.bundleIdentifier).first
    }

    /// Recomputes ``kindCounts``.
    package mutating func recount() {
        var counts: [String: Int] = [:]
        for log in logs where log.diagnostic.kind != .callStackTree {
            counts[log.diagnostic.kind.rawValue, default: 0] += 1
        }
        for signature in signatures { if let kind = signature.kind { counts[kind.rawValue, default: 0] += 1 } }
        kindCounts = counts
    }

    /// The MetricKit diagnostic kind an event or diagnostic type names: `Hang`/`HANGS`, `Disk Writes`/`DISK_WRITES`,
    /// `Launch`/`LAUNCHES`, `Crash`, `CPU Exception`, in any case, spaces and underscores ignored.
    package static func kind(named text: String) -> MetricKitDiagnostic.Kind? {
        let letters = String(text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) })
        switch letters {
        case "hang", "hangs": return .hang
        case "diskwrite", "diskwrites", "diskwriteexception", "diskwriteexceptions": return .diskWriteException
        case "launch", "launches", "applaunch", "applaunches": return .appLaunch
        case "crash", "crashes": return .crash
        case "cpu", "cpuexception", "cpuexceptions", "cpuusage": return .cpuException
        case "memory", "memoryexception", "memoryexceptions": return .memoryException
        default: return nil
        }
    }
}
