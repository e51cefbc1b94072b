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
    /// - Throws: ``JetsamParseError`` as `parse(_:)` (over an `IPSContainer`) does.
    public func memoryLimitEvidence(
        _ container: IPSContainer,
        contentHash: () -> UInt64
    ) throws(JetsamParseError) -> (evidence: MemoryLimitEvidence, isPartial: Bool) {
        try memoryLimitEvidence(container, contentHash: contentHash, skippingProcesses: true)
    }

    /// The evidence, with process entries skipped unread unless `skippingProcesses` is false.
    ///
    /// Skipped entries are recorded by their byte range and only killed ones parsed. When one of those ranges turns
    /// out not to be JSON (damage the skimming could not see), the body is read again in full, so that the repairs,
    /// and so the evidence, are the full model's.
    private func memoryLimitEvidence(
        _ container: IPSContainer,
        contentHash: () -> UInt64,
        skippingProcesses: Bool
    ) throws(JetsamParseError) -> (evidence: MemoryLimitEvidence, isPartial: Bool) {
        try Self.checkKind(of: container)
        // The body fields are read by the full reader's own code (``JetsamBodyReader``), so a repeated key, a value
        // of the wrong type or a repaired body resolve as they do in the full model (docs/json-output.md, "Repeated
        // keys"); only the process entries are left on the tape.
        var event = JetsamEvent()
        event.incidentID = container.header?.incidentID
        var reader = JetsamBodyReader(options: options)
        reader.gathersProcesses = true
        if let osVersion = container.header?.osVersion { reader.applyBuild(osVersion, to: &event) }
        guard container.bodyKind != .empty else {
            guard container.header != nil else { throw JetsamParseError(.noJetsamContent, "the file is empty") }
            return (Self.evidence(event, kills: [], contentHash: contentHash), true)
        }
        // Process entries (level 3) and memoryPages are recorded by their byte range; only the few that matter are
        // parsed: killed processes, found by a `"reason"` key in their bytes.
        var json = options.json
        if skippingProcesses {
            json.opaqueDepth = 3
            json.opaqueKeyProbe = "\"reason\""
        }
        let (document, content) = try locateContent(in: container, json: json)
        var unknown: [JSONValue.Member] = []
        for body in content.bodies { reader.readBody(body, into: &event, unknown: &unknown) }
        // Every `processes` list of every body, then the loose entries, as the full reader appends them; entries that
        // are not objects are skipped before the limit on entries counts, as there.
        var processes = (reader.gatheredProcesses + content.processes).filter { $0.kind == .object }
        if processes.count > options.maxProcesses { processes.removeLast(processes.count - options.maxProcesses) }
        let flattenedPriorities = reader.gatheredFlattened.compactMap(\.priority)
        let scale = JetsamRules.priorityScale(
            osVersion: event.osVersion,
            platform: event.platform,
            xnuVersion: event.kernel.flatMap(JetsamRules.xnuVersion(in:)),
            maxPriority: {
                let listed = processes.compactMap { entry -> Int64? in
                    guard let process = try? entry.expanded() else { return nil }
                    var ignored: [JSONValue.Member] = []
                    var fields = JetsamFieldReader()
                    return process.lastMember("priority").flatMap {
                        fields.int($0, "priority", "", unknown: &ignored)
                    }
                }
                return (listed + flattenedPriorities).filter { $0 != 999 }.max()
            }
        )
        let pageSize = Self.pageSize(of: event)
        var kills: [MemoryLimitEvidence.Kill] = []
        var repairedEntries = false
        var read: [JetsamEvent.Process] = []
        for (index, entry) in processes.enumerated() {
            if !entry.mayContainProbedKey { continue }
            guard let element = try? entry.expanded() else {
                repairedEntries = true
                continue
            }
            if element.document !== entry.document, !element.document.diagnostics.isEmpty { repairedEntries = true }
            read.append(reader.readProcess(element, path: "processes[\(index)]"))
        }
        // Their order is not kept: ``MemoryLimitEvidence`` sorts the kills.
        for process in reader.gatheredFlattened + read {
            guard process.reason == KillReason.perProcessLimit else { continue }
            let (_, limit) = JetsamRules.footprint(rpages: process.rpages, pageSize: pageSize, reason: process.reason)
            guard let limit else { continue }
            let role = ProcessRole.classify(
                name: process.name,
                states: process.states,
                normalizedPriority: process.priority.map(scale.normalize)
            )
            kills.append(MemoryLimitEvidence.Kill(role: role, name: process.name, limitMB: limit))
        }
        if skippingProcesses, repairedEntries || reader.missedOpaqueContent {
            let again = try memoryLimitEvidence(container, contentHash: contentHash, skippingProcesses: false)
            return (again.evidence, true)
        }
        let isPartial =
            document.isFragmentList || document.isTruncated || !content.hasBody || !content.repairs.isEmpty
            || repairedEntries
            || reader.missedOpaqueContent || document.diagnostics.contains { $0.severity >= .warning }
        return (Self.evidence(event, kills: kills, contentHash: contentHash), isPartial)
    }

    /// The page size the full model settles on: `memoryStatus.pageSize`, else the top-level `pageSize`; 0 is none.
    static func pageSize(of event: JetsamEvent) -> UInt64? {
        let size = event.memoryStatus?.pageSize ?? event.pageSize
        return size == 0 ? nil : size
    }

    /// The evidence of a body read without its processes, with the kills found among them.
    private static func evidence(
        _ event: JetsamEvent,
        kills: [MemoryLimitEvidence.Kill],
        contentHash: () -> UInt64
    ) -> MemoryLimitEvidence {
        let pageSize = pageSize(of: event)
        return MemoryLimitEvidence(
            event: event,
            identity: MemoryLimitEvidence.identity(of: event, contentHash: contentHash),
            isModifiedKernel: event.kernel.map(JetsamRules.isModifiedKernel) ?? false,
            estimatedRAMMB: JetsamRules.ramEstimateMB(status: event.memoryStatus, pageSize: pageSize),
            hasPageSize: pageSize != nil,
            kills: kills
        )
    }
}
