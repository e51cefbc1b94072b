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
            diagnostics.append(Diagnostic(.warning, "pageSize is 0; ignored it", at: SourceLocation(keyPath: "pageSize")))
        }
        if event.pageSize == nil, event.killedProcesses.contains(where: { $0.rpages != nil }) {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "the report states no page size (memoryStatus.pageSize or pageSize); footprints and limits are "
                        + "not computed (A8 devices use 4096-byte pages, so 16384 cannot be assumed)",
                    at: SourceLocation(keyPath: "memoryStatus.pageSize")))
        }
        if let kernel = event.kernel {
            event.xnuVersion = Self.xnuVersion(in: kernel)
            let lower = kernel.lowercased()
            event.isModifiedKernel = lower.contains("hacked") || lower.contains("marijuan")
        }
        if let product = event.product {
            event.deviceName = DeviceCatalog.model(for: product)?.name
        }
        event.priorityScale = priorityScale(of: event)
        let scale = event.priorityScale ?? .legacy
        let pageSize = event.pageSize
        for index in event.processes.indices {
            var process = event.processes[index]
            if let priority = process.priority {
                let normalized = scale.normalize(priority)
                process.normalizedPriority = normalized
                process.priorityBand = PriorityScale.bandName(forNormalized: normalized)
            }
            process.role = ProcessRole.classify(
                name: process.name, states: process.states, normalizedPriority: process.normalizedPriority)
            if process.reason != nil, let pages = process.rpages, let pageSize {
                let (bytes, overflow) = pages.multipliedReportingOverflow(by: pageSize)
                if overflow {
                    diagnostics.append(
                        Diagnostic(
                            .warning, "rpages × pageSize overflows 64 bits; footprint not computed",
                            at: SourceLocation(keyPath: "processes[\(index)].rpages")))
                } else {
                    process.footprintBytes = bytes
                    if process.reason == KillReason.perProcessLimit { process.limitMB = bytes >> 20 }
                }
            }
            if let reason = process.reason, KillReason(reason).isUnknown {
                diagnostics.append(
                    Diagnostic(
                        .note, "unknown kill reason '\(reason)' kept as written",
                        at: SourceLocation(keyPath: "processes[\(index)].reason")))
            }
            event.processes[index] = process
        }
        event.ram = ramEstimate(of: event)
    }

    /// The xnu version in a Darwin kernel string (`root:xnu-7195.40.113.0.2~22/RELEASE_ARM64_T8030`).
    static func xnuVersion(in kernel: String) -> String? {
        guard let range = kernel.firstRange(of: "xnu-") else { return nil }
        let tail = kernel[range.upperBound...]
        let version = tail.prefix { $0.isNumber || $0 == "." }
        return version.isEmpty ? nil : String(version)
    }

    private func priorityScale(of event: JetsamEvent) -> PriorityScale? {
        let priorities = event.processes.compactMap(\.priority).filter { $0 != 999 }
        guard !event.processes.allSatisfy({ $0.priority == nil }) else { return nil }
        if let major = event.osVersion.flatMap({ OSVersion(name: "", version: $0, build: "", raw: "").major }),
            event.platform == .iOS || event.platform == .unknown
        {
            return major >= 16 ? .modern : .legacy
        }
        if let xnu = event.xnuVersion, let major = Int(xnu.prefix { $0.isNumber }) {
            return major >= 8792 ? .modern : .legacy
        }
        return (priorities.max() ?? 0) > 21 ? .modern : .legacy
    }

    private func ramEstimate(of event: JetsamEvent) -> JetsamEvent.RAMEstimate? {
        var estimate: Double?
        if let status = event.memoryStatus, let pages = status.memoryPages, let pageSize = event.pageSize,
            let active = pages.active, let free = pages.free, let wired = pages.wired, let inactive = pages.inactive
        {
            let total =
                active + free + wired + inactive + (pages.speculative ?? 0) + (pages.throttled ?? 0)
                + (status.compressorSize ?? 0)
            estimate = (Double(total) * Double(pageSize) / 1_048_576 * 10).rounded() / 10
        }
        let model = event.product.flatMap(DeviceCatalog.model(for:))
        let resolution = event.product.flatMap { DeviceCatalog.resolveRAM(for: $0, estimatedMB: estimate) }
        guard estimate != nil || model != nil else { return nil }
        let options = model?.ramOptionsMB ?? []
        return JetsamEvent.RAMEstimate(
            estimatedMB: estimate, nominalMB: resolution?.ramMB,
            nominalOptionsMB: options.count > 1 ? options : nil,
            resolvedByEstimate: resolution?.resolvedByEstimate ?? false)
    }
}
