import APMInspectCore
import AppleDeviceCatalog

extension JetsamParser {
    /// Fills in what follows from the raw fields: page size, roles, bands, byte figures, RAM and device name.
    func finalize(_ event: inout JetsamEvent, diagnostics: inout [Diagnostic]) {
        if let status = event.memoryStatus, let size = status.pageSize {
            event.pageSize = size
            event.pageSizeSource = "memoryStatus.pageSize"
        }
        if event.pageSize == 0 {
            event.pageSize = nil
            event.pageSizeSource = nil
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .jetsamZeroPageSize,
                    "pageSize is 0; ignored it",
                    at: SourceLocation(keyPath: "pageSize")
                )
            )
        }
        if event.pageSize == nil, event.killedProcesses.contains(where: { $0.rpages != nil }) {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .jetsamNoPageSize,
                    "the report states no page size (memoryStatus.pageSize or pageSize); footprints and limits are "
                        + "not computed (A8 devices use 4096-byte pages, so 16384 cannot be assumed)",
                    at: SourceLocation(keyPath: "memoryStatus.pageSize")
                )
            )
        }
        if let kernel = event.kernel {
            event.xnuVersion = JetsamRules.xnuVersion(in: kernel)
            event.isModifiedKernel = JetsamRules.isModifiedKernel(kernel)
        }
        if let product = event.product {
            event.deviceName = DeviceCatalog.model(for: product)?.name
        }
        let hasPriorities = event.processes.contains { $0.priority != nil }
        let scale = JetsamRules.priorityScale(
            osVersion: event.osVersion,
            platform: event.platform,
            xnuVersion: event.xnuVersion,
            maxPriority: { event.processes.compactMap(\.priority).filter { $0 != 999 }.max() }
        )
        event.priorityScale = hasPriorities ? scale : nil
        let pageSize = event.pageSize
        for index in event.processes.indices {
            var process = event.processes[index]
            if let priority = process.priority {
                let normalized = scale.normalize(priority)
                process.normalizedPriority = normalized
                process.priorityBand = PriorityScale.bandName(forNormalized: normalized)
            }
            process.role = ProcessRole.classify(
                name: process.name,
                states: process.states,
                normalizedPriority: process.normalizedPriority
            )
            let (bytes, limit) = JetsamRules.footprint(
                rpages: process.rpages,
                pageSize: pageSize,
                reason: process.reason
            )
            process.footprintBytes = bytes
            process.limitMB = limit
            if process.reason != nil, process.rpages != nil, pageSize != nil, bytes == nil {
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        .jetsamFootprintOverflow,
                        "rpages × pageSize overflows 64 bits; footprint not computed",
                        at: SourceLocation(keyPath: "processes[\(index)].rpages")
                    )
                )
            }
            if let reason = process.reason, KillReason(reason).isUnknown {
                diagnostics.append(
                    Diagnostic(
                        .note,
                        .jetsamUnknownKillReason,
                        "unknown kill reason '\(reason)' kept as written",
                        at: SourceLocation(keyPath: "processes[\(index)].reason")
                    )
                )
            }
            event.processes[index] = process
        }
        event.ram = ramEstimate(of: event)
    }

    private func ramEstimate(of event: JetsamEvent) -> JetsamEvent.RAMEstimate? {
        let estimate = JetsamRules.ramEstimateMB(status: event.memoryStatus, pageSize: event.pageSize)
        let model = event.product.flatMap(DeviceCatalog.model(for:))
        let resolution = event.product.flatMap { DeviceCatalog.resolveRAM(for: $0, estimatedMB: estimate) }
        guard estimate != nil || model != nil else { return nil }
        let options = model?.ramOptionsMB ?? []
        return JetsamEvent.RAMEstimate(
            estimatedMB: estimate,
            nominalMB: resolution?.ramMB,
            nominalOptionsMB: options.count > 1 ? options : nil,
            resolvedByEstimate: resolution?.resolvedByEstimate ?? false
        )
    }
}
