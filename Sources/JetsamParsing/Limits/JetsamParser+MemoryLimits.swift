import APMInspectCore

extension JetsamParser {
    /// The memory-limit evidence of a report, read without building the full model.
    ///
    /// Only the body fields the table needs and the processes that carry a kill `reason` are decoded; every other
    /// process is skipped on the tape. The figures are the ones ``MemoryLimitEvidence/init(event:contentHash:)``
    /// gives for the full parse (a test checks this on every corpus file).
    ///
    /// - Parameters:
    ///   - container: The file split into header and body.
    ///   - contentHash: Called only when the report has no incident id, to identify it by content.
    /// - Returns: The evidence, and whether the report was partial (an excerpt, truncated or repaired).
    /// - Throws: ``JetsamParseError`` as ``parse(_:)-(IPSContainer)`` does.
    public func memoryLimitEvidence(
        _ container: IPSContainer,
        contentHash: () -> UInt64
    ) throws(JetsamParseError) -> (evidence: MemoryLimitEvidence, isPartial: Bool) {
        try Self.checkKind(of: container)
        var facts = Facts()
        facts.incident = container.header?.incidentID
        if let osVersion = container.header?.osVersion { facts.apply(build: osVersion) }
        guard container.bodyKind != .empty else {
            guard container.header != nil else { throw JetsamParseError(.noJetsamContent, "the file is empty") }
            return (facts.evidence(kills: [], contentHash: contentHash), true)
        }
        // Process entries (level 3) and memoryPages are recorded by their byte range; only the few that matter are
        // parsed: killed processes, found by a `"reason"` key in their bytes.
        var json = options.json
        json.opaqueDepth = 3
        json.opaqueKeyProbe = "\"reason\""
        let (document, content) = try locateContent(in: container, json: json)
        var processes: [JSONElement] = []
        for body in content.bodies {
            facts.read(body: body)
            if let list = body.member("processes"), list.kind == .array {
                for element in list.elements { processes.append(element) }
            }
        }
        processes += content.processes
        if processes.count > options.maxProcesses { processes.removeLast(processes.count - options.maxProcesses) }
        let scale = JetsamRules.priorityScale(
            osVersion: facts.osVersion,
            platform: facts.platform,
            xnuVersion: facts.kernel.flatMap(JetsamRules.xnuVersion(in:)),
            maxPriority: {
                processes.compactMap { (try? $0.expanded())?.member("priority")?.int64 }.filter { $0 != 999 }.max()
            }
        )
        var kills: [MemoryLimitEvidence.Kill] = []
        var repairedEntries = false
        for entry in processes where entry.kind == .object {
            if !entry.mayContainProbedKey { continue }
            guard let process = try? entry.expanded() else {
                repairedEntries = true
                continue
            }
            if process.document !== entry.document, !process.document.diagnostics.isEmpty { repairedEntries = true }
            guard let reason = Facts.text(process.member("reason")), reason == KillReason.perProcessLimit else {
                continue
            }
            let (_, limit) = JetsamRules.footprint(
                rpages: Facts.unsigned(process.member("rpages")),
                pageSize: facts.pageSize,
                reason: reason
            )
            guard let limit else { continue }
            let name = Facts.text(process.member("name"))
            let states = process.member("states")?.strings ?? []
            let priority = process.member("priority")?.int64.map(scale.normalize)
            let role = ProcessRole.classify(name: name, states: states, normalizedPriority: priority)
            kills.append(MemoryLimitEvidence.Kill(role: role, name: name, limitMB: limit))
        }
        let isPartial =
            document.isFragmentList || document.isTruncated || content.bodies.isEmpty || repairedEntries
            || document.diagnostics.contains { $0.severity >= .warning }
        return (facts.evidence(kills: kills, contentHash: contentHash), isPartial)
    }

    /// The body facts the limit table needs, with the same precedence rules as the full reader.
    private struct Facts {
        var incident: String?
        var crashReporterKey: String?
        var product: String?
        var kernel: String?
        var osName: String?
        var osVersion: String?
        var osBuild: String?
        var isBeta = false
        var platform = OSVersion.Platform.unknown
        var statusPageSize: UInt64?
        var topLevelPageSize: UInt64?
        var estimate: Double?

        var pageSize: UInt64? {
            let size = statusPageSize ?? topLevelPageSize
            return size == 0 ? nil : size
        }

        static func text(_ element: JSONElement?) -> String? {
            guard let element else { return nil }
            if let text = element.string { return text }
            return element.kind == .number ? element.rawText : nil
        }

        static func unsigned(_ element: JSONElement?) -> UInt64? {
            guard let element else { return nil }
            if let value = element.uint64 { return value }
            if element.kind == .number, let double = element.double, let exact = UInt64(exactly: double) {
                return exact
            }
            return nil
        }

        mutating func apply(build text: String) {
            guard osVersion == nil else { return }
            let version = OSVersion(parsing: text)
            osName = version.name.isEmpty ? nil : version.name
            osVersion = version.version.isEmpty ? nil : version.version
            osBuild = version.build.isEmpty ? nil : version.build
            isBeta = version.isBeta
            platform = version.platform
        }

        mutating func read(body: JSONElement) {
            crashReporterKey = crashReporterKey ?? Self.text(body.member("crashReporterKey"))
            kernel = kernel ?? Self.text(body.member("kernel"))
            product = product ?? Self.text(body.member("product"))
            incident = Self.text(body.member("incident")) ?? incident
            if let build = Self.text(body.member("build")) { apply(build: build) }
            if topLevelPageSize == nil { topLevelPageSize = Self.unsigned(body.member("pageSize")) }
            if let status = body.member("memoryStatus") {
                statusPageSize = Self.unsigned(status.member("pageSize"))
                let pages = try? status.member("memoryPages")?.expanded()
                estimate = JetsamRules.ramEstimateMB(
                    active: Self.unsigned(pages?.member("active")),
                    inactive: Self.unsigned(pages?.member("inactive")),
                    free: Self.unsigned(pages?.member("free")),
                    wired: Self.unsigned(pages?.member("wired")),
                    speculative: Self.unsigned(pages?.member("speculative")),
                    throttled: Self.unsigned(pages?.member("throttled")),
                    compressorSize: Self.unsigned(status.member("compressorSize")),
                    pageSize: pageSize
                )
            }
        }

        func evidence(kills: [MemoryLimitEvidence.Kill], contentHash: () -> UInt64) -> MemoryLimitEvidence {
            let identity: String
            if let incident, !incident.isEmpty {
                identity = "\(incident.uppercased())|\(crashReporterKey ?? "")"
            } else {
                identity = "content:\(String(contentHash(), radix: 16))"
            }
            return MemoryLimitEvidence(
                identity: identity,
                product: product,
                osName: osName,
                osVersion: osVersion,
                osBuild: osBuild,
                platform: platform,
                isBetaBuild: isBeta,
                isModifiedKernel: kernel.map(JetsamRules.isModifiedKernel) ?? false,
                estimatedRAMMB: estimate,
                hasPageSize: pageSize != nil,
                kills: kills
            )
        }
    }
}
