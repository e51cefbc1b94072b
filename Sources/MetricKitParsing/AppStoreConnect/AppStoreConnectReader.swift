import APMInspectCore
import ByteAccess

/// Reads App Store Connect API diagnostic responses saved as JSON: the `diagnosticLogs` of a signature and the
/// `diagnosticSignatures` of a build.
///
/// The call-stack trees are those of MetricKit (`callStackPerThread`, `callStacks`, `callStackRootFrames`,
/// `subFrames`), read by ``MetricKitReader``'s tree reader with an explicit stack and its frame budget, so a
/// hostile `subFrames` chain costs bounded memory and never recursion; the JSON parser's depth limit is
/// ``MetricKitReader/json``'s. Products, logs, insights and signatures are bounded by ``maxEntries``. A value of
/// the wrong type is a finding with its key path, never a failure of the whole file.
package struct AppStoreConnectReader: Sendable {
    /// The nesting and frame limits and the tree reader.
    package var reader: MetricKitReader
    /// Products, logs, insights and signatures read over the whole file; the rest are left out with a finding.
    package var maxEntries: Int

    /// A reader with `reader`'s limits that reads at most `maxEntries` entries.
    package init(reader: MetricKitReader = MetricKitReader(), maxEntries: Int = 100_000) {
        self.reader = reader
        self.maxEntries = maxEntries
    }

    private static let recognitionKeys = QuotedKeyFinder([
        "productData", "diagnosticLogs", "signatureId", "diagnosticType", "data",
    ])

    /// True when `bytes` are JSON whose first 64 KiB read as one of the two responses.
    ///
    /// That is `productData`, or a `signatureId` beside `diagnosticLogs` (a logs response), or `diagnosticType`
    /// beside `data` (a signatures response). Keys count only when a colon follows them. `format` is what
    /// `ContentSniffer` says of `bytes`.
    package static func recognise(_ bytes: [UInt8], format: ContentFormat) -> Bool {
        guard format == .json else { return false }
        return bytes.withBorrowedBytes { buffer in
            let prefix = buffer.prefix(1 << 16)
            let found = recognitionKeys.find(in: prefix)
            return found[0] || (found[1] && found[2]) || (found[3] && found[4])
        }
    }

    /// Reads a whole file.
    ///
    /// - Throws: `InputError` when the bytes are not JSON this reader can use (too deep, too large, empty), or
    ///   hold neither response.
    package func read(_ bytes: [UInt8]) throws(InputError) -> AppStoreConnectReadResult {
        let document = try JSONDocument(bytes: bytes, options: reader.json)
        var state = State(findings: MetricKitFindings(document: document), entries: maxEntries)
        var budget = MetricKitReader.Budget(frames: reader.maxFrames, entries: reader.maxMetricEntries)
        let root = document.root
        var report: AppStoreConnectReport
        switch root.kind {
        case .object where root.member("productData") != nil:
            report = AppStoreConnectReport(response: .diagnosticLogs)
            readLogsResponse(root, into: &report, state: &state, budget: &budget)
        case .object where root.member("data") != nil:
            report = AppStoreConnectReport(response: .diagnosticSignatures)
            readSignaturesResponse(root, into: &report, state: &state)
        case .object where root.member("diagnosticLogs") != nil || root.member("signatureId") != nil:
            // One `productData` entry saved on its own.
            state.findings.add(
                .note,
                .appStoreConnectKeyVariant,
                "one productData entry without its response: read as a logs response of one product",
                at: root,
                keyPath: ""
            )
            report = AppStoreConnectReport(response: .diagnosticLogs)
            if state.take("products") {
                report.products = [readProduct(root, keyPath: "", state: &state, budget: &budget)]
            }
        case .array:
            // The `productData` or `data` list saved on its own.
            let first = root.elements.first { $0.kind == .object }
            let isLogs = first.map { $0.member("diagnosticLogs") != nil || $0.member("signatureId") != nil } ?? false
            state.findings.add(
                .note,
                .appStoreConnectKeyVariant,
                isLogs
                    ? "a bare list of productData entries: read as a logs response"
                    : "a bare list of signatures: read as a signatures response",
                at: root,
                keyPath: ""
            )
            report = AppStoreConnectReport(response: isLogs ? .diagnosticLogs : .diagnosticSignatures)
            if isLogs {
                report.products = readProducts(root, keyPath: "", state: &state, budget: &budget)
            } else {
                report.signatures = readSignatures(root, keyPath: "", state: &state)
            }
        default:
            throw InputError(
                .wrongKind,
                "an App Store Connect diagnostics response is an object with productData or data"
            )
        }
        report.recount()
        var diagnostics = document.diagnostics
        if document.isTruncated {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .metricKitTruncatedJSON,
                    "the file ends inside the JSON: what comes before was read"
                )
            )
        }
        diagnostics += state.findings.all
        return AppStoreConnectReadResult(report: report, diagnostics: diagnostics)
    }

    /// The findings and what is left of the entry budget.
    struct State {
        var findings: MetricKitFindings
        var entries: Int
        var exhausted = false

        /// Takes one entry from the budget; false (with one finding per file) once it is spent.
        mutating func take(_ noun: String) -> Bool {
            if entries > 0 {
                entries -= 1
                return true
            }
            if !exhausted {
                exhausted = true
                findings.add(
                    .warning,
                    .appStoreConnectTruncated,
                    "more entries than the reader takes (products, logs, insights, signatures): the rest of the \(noun) "
                        + "and what follows were left out",
                    at: nil,
                    keyPath: ""
                )
            }
            return false
        }

        /// True when `element` is of `kind`, otherwise an `appstoreconnect.wrong-type` warning.
        mutating func expect(_ element: JSONElement, is kind: JSONElement.Kind, _ message: String, keyPath: String)
            -> Bool
        {
            if element.kind == kind { return true }
            findings.add(.warning, .appStoreConnectWrongType, message, at: element, keyPath: keyPath)
            return false
        }
    }

    private func readLogsResponse(
        _ root: JSONElement,
        into report: inout AppStoreConnectReport,
        state: inout State,
        budget: inout MetricKitReader.Budget
    ) {
        var unknown: [JSONValue.Member] = []
        root.forEachMember { key, value in
            switch key {
            case "productData":
                report.products = readProducts(value, keyPath: key, state: &state, budget: &budget)
            case "version":
                report.version = value.string ?? value.rawText
            default:
                unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
    }

    private func readProducts(
        _ value: JSONElement,
        keyPath: String,
        state: inout State,
        budget: inout MetricKitReader.Budget
    ) -> [AppStoreConnectReport.Product] {
        guard state.expect(value, is: .array, "productData is not an array", keyPath: keyPath) else { return [] }
        var products: [AppStoreConnectReport.Product] = []
        for (index, element) in value.elements.enumerated() {
            let path = "\(keyPath)[\(index)]"
            guard state.expect(element, is: .object, "a productData entry is not an object", keyPath: path) else {
                continue
            }
            guard state.take("products") else { break }
            products.append(readProduct(element, keyPath: path, state: &state, budget: &budget))
        }
        return products
    }

    private func readProduct(
        _ object: JSONElement,
        keyPath: String,
        state: inout State,
        budget: inout MetricKitReader.Budget
    ) -> AppStoreConnectReport.Product {
        var product = AppStoreConnectReport.Product(keyPath: keyPath)
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            switch key {
            case "signatureId" where value.kind == .string:
                product.signatureId = value.string
            case "diagnosticInsights":
                guard state.expect(value, is: .array, "diagnosticInsights is not an array", keyPath: path) else {
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                    return
                }
                for (index, element) in value.elements.enumerated() {
                    guard
                        state.expect(element, is: .object, "an insight is not an object", keyPath: "\(path)[\(index)]")
                    else { continue }
                    guard state.take("insights") else { break }
                    product.insights.append(Self.readInsight(element))
                }
            case "diagnosticLogs":
                guard state.expect(value, is: .array, "diagnosticLogs is not an array", keyPath: path) else {
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                    return
                }
                for (index, element) in value.elements.enumerated() {
                    let itemPath = "\(path)[\(index)]"
                    guard state.expect(element, is: .object, "a log is not an object", keyPath: itemPath) else {
                        continue
                    }
                    guard state.take("logs") else { break }
                    product.logs.append(readLog(element, keyPath: itemPath, state: &state, budget: &budget))
                }
            default:
                unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !unknown.isEmpty { product.unknownKeys = .object(unknown) }
        return product
    }

    private static func readInsight(_ object: JSONElement) -> AppStoreConnectReport.Insight {
        var insight = AppStoreConnectReport.Insight()
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            switch key {
            case "insightsCategory" where value.kind == .string: insight.category = value.string
            case "insightsString" where value.kind == .string: insight.text = value.string
            case "insightsURL" where value.kind == .string: insight.url = value.string
            default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !unknown.isEmpty { insight.unknownKeys = .object(unknown) }
        return insight
    }

    private func readLog(
        _ object: JSONElement,
        keyPath: String,
        state: inout State,
        budget: inout MetricKitReader.Budget
    ) -> AppStoreConnectReport.Log {
        var metadataElement: JSONElement?
        var trees: [MetricKitCallTree] = []
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            switch key {
            case "diagnosticMetaData", "diagnosticMetadata", "metadata":
                if key != "diagnosticMetaData" {
                    state.findings.add(
                        .note,
                        .appStoreConnectKeyVariant,
                        "\(key) read as diagnosticMetaData",
                        at: value,
                        keyPath: path
                    )
                }
                metadataElement = value
            case "callStackTree":
                let elements: [JSONElement]
                switch value.kind {
                case .array:
                    elements = Array(value.elements)
                case .object:
                    state.findings.add(
                        .note,
                        .appStoreConnectKeyVariant,
                        "callStackTree is one object, not an array of trees: read as a list of one",
                        at: value,
                        keyPath: path
                    )
                    elements = [value]
                default:
                    _ = state.expect(value, is: .array, "callStackTree is not an array", keyPath: path)
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                    return
                }
                for (index, element) in elements.enumerated() {
                    let treePath = value.kind == .array ? "\(path)[\(index)]" : path
                    guard state.expect(element, is: .object, "a call-stack tree is not an object", keyPath: treePath)
                    else { continue }
                    trees.append(
                        reader.readTree(element, keyPath: treePath, findings: &state.findings, budget: &budget)
                    )
                }
            default:
                unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        var event: String?
        var eventDetail: String?
        var writesCaused: MetricKitMeasurement?
        var metadata = MetricKitMetadata()
        if let metadataElement {
            let path = MetricKitReader.join(keyPath, "diagnosticMetaData")
            if state.expect(metadataElement, is: .object, "diagnosticMetaData is not an object", keyPath: path) {
                var metadataUnknown: [JSONValue.Member] = []
                metadataElement.forEachMember { key, value in
                    let text = value.string ?? (value.kind == .number ? value.rawText : nil)
                    switch key {
                    case "bundleId": metadata.bundleIdentifier = text
                    case "bundleIdentifier", "appBuildVersion":
                        state.findings.add(
                            .note,
                            .appStoreConnectKeyVariant,
                            "\(key) (MetricKit's name) read as App Store Connect's "
                                + (key == "bundleIdentifier" ? "bundleId" : "buildVersion"),
                            at: value,
                            keyPath: MetricKitReader.join(path, key)
                        )
                        if key == "bundleIdentifier" {
                            metadata.bundleIdentifier = text
                        } else {
                            metadata.appBuildVersion = text
                        }
                    case "appVersion": metadata.appVersion = text
                    case "buildVersion": metadata.appBuildVersion = text
                    case "osVersion": metadata.osVersion = text
                    case "deviceType": metadata.deviceType = text
                    case "platformArchitecture": metadata.platformArchitecture = text
                    case "event": event = text
                    case "eventDetail": eventDetail = text
                    case "writesCaused": writesCaused = text.map(MetricKitMeasurement.init(raw:))
                    default: metadataUnknown.append(JSONValue.Member(key: key, value: value.materialized))
                    }
                }
                if let written = metadata.osVersion {
                    let parsed = OSVersion(parsing: written)
                    metadata.osName = parsed.name.isEmpty ? nil : parsed.name
                    metadata.osVersionNumber = parsed.version.isEmpty ? nil : parsed.version
                    metadata.osBuild = parsed.build.isEmpty ? nil : parsed.build
                }
                if !metadataUnknown.isEmpty { metadata.unknownKeys = .object(metadataUnknown) }
            } else {
                unknown.append(JSONValue.Member(key: "diagnosticMetaData", value: metadataElement.materialized))
            }
        }
        let kind = event.flatMap(AppStoreConnectReport.kind(named:))
        if let event, kind == nil {
            state.findings.add(
                .note,
                .appStoreConnectUnknownEvent,
                "event \"\(event)\" is not a kind this reader knows (hang, disk writes, launch …): kept as written",
                at: metadataElement,
                keyPath: MetricKitReader.join(keyPath, "diagnosticMetaData.event")
            )
        }
        var diagnostic = MetricKitDiagnostic(kind: kind ?? .callStackTree, keyPath: keyPath, metadata: metadata)
        diagnostic.writesCaused = writesCaused
        diagnostic.callTree = trees.first
        var log = AppStoreConnectReport.Log(keyPath: keyPath, diagnostic: diagnostic)
        log.event = event
        log.eventDetail = eventDetail
        if trees.count > 1 { log.moreCallTrees = Array(trees.dropFirst()) }
        if !unknown.isEmpty { log.unknownKeys = .object(unknown) }
        return log
    }

    private func readSignaturesResponse(
        _ root: JSONElement,
        into report: inout AppStoreConnectReport,
        state: inout State
    ) {
        var unknown: [JSONValue.Member] = []
        root.forEachMember { key, value in
            switch key {
            case "data": report.signatures = readSignatures(value, keyPath: key, state: &state)
            case "links": report.links = value.materialized
            case "meta": report.meta = value.materialized
            default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !unknown.isEmpty { report.unknownKeys = .object(unknown) }
    }

    private func readSignatures(_ value: JSONElement, keyPath: String, state: inout State)
        -> [AppStoreConnectReport.Signature]
    {
        guard state.expect(value, is: .array, "data is not an array", keyPath: keyPath) else { return [] }
        var signatures: [AppStoreConnectReport.Signature] = []
        for (index, element) in value.elements.enumerated() {
            let path = keyPath.isEmpty ? "[\(index)]" : "\(keyPath)[\(index)]"
            guard state.expect(element, is: .object, "a signature is not an object", keyPath: path) else { continue }
            guard state.take("signatures") else { break }
            signatures.append(readSignature(element, keyPath: path, state: &state))
        }
        return signatures
    }

    private func readSignature(_ object: JSONElement, keyPath: String, state: inout State)
        -> AppStoreConnectReport.Signature
    {
        var signature = AppStoreConnectReport.Signature(keyPath: keyPath)
        var unknown: [JSONValue.Member] = []
        func attribute(_ key: String, _ value: JSONElement, path: String) -> Bool {
            switch key {
            case "diagnosticType": signature.diagnosticType = value.string
            case "signature": signature.signature = value.string
            case "insight": signature.insight = value.materialized
            case "weight":
                if let number = value.double, value.kind == .number, number.isFinite {
                    signature.weight = number
                } else if let text = value.string, let number = Double(text.trimmingASCIIWhitespace()),
                    number.isFinite
                {
                    state.findings.add(
                        .note,
                        .appStoreConnectKeyVariant,
                        "weight is a string: read as its number",
                        at: value,
                        keyPath: path
                    )
                    signature.weight = number
                } else {
                    state.findings.add(
                        .warning,
                        .appStoreConnectWrongType,
                        "weight is not a number: kept among the unknown keys",
                        at: value,
                        keyPath: path
                    )
                    return false
                }
            default: return false
            }
            return true
        }
        var flattened = false
        object.forEachMember { key, value in
            let path = MetricKitReader.join(keyPath, key)
            switch key {
            case "id": signature.id = value.string ?? value.rawText
            case "type": signature.type = value.string
            case "relationships": signature.relationships = value.materialized
            case "attributes" where value.kind == .object:
                value.forEachMember { attributeKey, attributeValue in
                    let attributePath = MetricKitReader.join(path, attributeKey)
                    if !attribute(attributeKey, attributeValue, path: attributePath) {
                        unknown.append(JSONValue.Member(key: attributeKey, value: attributeValue.materialized))
                    }
                }
            default:
                if ["diagnosticType", "signature", "weight", "insight"].contains(key) {
                    flattened = true
                    if attribute(key, value, path: path) { return }
                }
                unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if flattened {
            state.findings.add(
                .note,
                .appStoreConnectKeyVariant,
                "the signature's attributes are not under attributes: read where they are",
                at: object,
                keyPath: keyPath
            )
        }
        if let type = signature.diagnosticType {
            signature.kind = AppStoreConnectReport.kind(named: type)
            if signature.kind == nil {
                state.findings.add(
                    .note,
                    .appStoreConnectUnknownEvent,
                    "diagnosticType \"\(type)\" is not a kind this reader knows (hangs, disk writes, launches …): "
                        + "kept as written",
                    at: object,
                    keyPath: MetricKitReader.join(keyPath, "attributes.diagnosticType")
                )
            }
        }
        if !unknown.isEmpty { signature.unknownKeys = .object(unknown) }
        return signature
    }
}
