import APMInspectCore

// Through the encoder, each of an event's hundreds of processes went through a dynamic cast and a boxed copy before
// its own direct writer ran: about as much as writing the processes. Written directly, the event hands its process
// array straight to the writer; the memory status and RAM estimate (once per event) still go through their
// `encode(to:)`.
extension JetsamEvent: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("bugType", bugType)
        object.write("codeSigningMonitor", codeSigningMonitor)
        object.write("crashReporterKey", crashReporterKey)
        object.write("date", date)
        object.write("deviceName", deviceName)
        object.write("eventCode", eventCode)
        object.write("eventReason", eventReason)
        object.write("genCounter", genCounter)
        object.write("header", header)
        object.write("incidentID", incidentID)
        object.write("isBetaBuild", isBetaBuild)
        object.write("isModifiedKernel", isModifiedKernel)
        object.write("isPartial", isPartial)
        object.write("kernel", kernel)
        object.write("largestProcess", largestProcess)
        object.write("memoryStatus", encoding: memoryStatus)
        object.write("notes", notes)
        object.write("osBuild", osBuild)
        object.write("osName", osName)
        object.write("osVersion", osVersion)
        object.write("pageSize", pageSize)
        object.write("pageSizeSource", pageSizeSource)
        object.write("platform", platform.rawValue)
        object.write("priorityScale", priorityScale?.rawValue)
        object.write("processes", processes)
        object.write("product", product)
        object.write("ram", encoding: ram)
        object.write("timeDelta", timeDelta)
        object.write("unknownKeys", unknownKeys)
        object.write("xnuVersion", xnuVersion)
    }
}
