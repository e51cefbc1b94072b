import APMInspectCore

// A report has dozens of threads: written directly, their frames and registers go straight to the output instead
// of through the encoder's member sorting once per thread.
extension CrashReport.Thread: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("attributed", attributed)
        object.write("crashed", crashed)
        object.write("frames", frames)
        object.write("id", id)
        object.write("index", index)
        object.write("name", name)
        object.write("queue", queue)
        object.write("registerFlavor", registerFlavor)
        object.write("registers", registers)
        object.write("rosettaRegisters", rosettaRegisters)
    }
}
