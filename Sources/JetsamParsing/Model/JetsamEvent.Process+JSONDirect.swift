import APMInspectCore

// An event lists hundreds of processes: written directly, they go straight to the output instead of through the
// encoder's member keeping and sorting, which was half the time of `scan --format ndjson` over JetsamEvents.
extension JetsamEvent.Process: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("age", age)
        object.write("coalition", coalition)
        object.write("cpuTime", cpuTime)
        object.write("csFlags", csFlags)
        object.write("csTrustLevel", csTrustLevel)
        object.write("fds", fds)
        object.write("footprintBytes", footprintBytes)
        object.write("freezeSkipReason", freezeSkipReason)
        object.write("genCount", genCount)
        object.write("idleDelta", idleDelta)
        object.write("killDelta", killDelta)
        object.write("lifetimeMax", lifetimeMax)
        object.write("limitMB", limitMB)
        object.write("memRegions", memRegions)
        object.write("name", name)
        object.write("neuralPages", neuralPages)
        object.write("normalizedPriority", normalizedPriority)
        object.write("pageSpike", pageSpike)
        object.write("physicalPages", physicalPages)
        object.write("pid", pid)
        object.write("priority", priority)
        object.write("priorityBand", priorityBand)
        object.write("purgeable", purgeable)
        object.write("reason", reason)
        object.write("role", role.rawValue)
        object.write("rpages", rpages)
        object.write("states", states)
        object.write("unknownKeys", unknownKeys)
        object.write("uuid", uuid)
    }
}

extension JetsamEvent.PhysicalPages: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("frozenToSwapPages", frozenToSwapPages)
        object.write("internal", `internal`)
        object.write("unknownKeys", unknownKeys)
    }
}
