import APMInspectCore

// Parts of the report's top level, written directly with it.
extension CrashReport.Exception: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("codeValues", codeValues)
        object.write("codes", codes)
        object.write("faultAddress", faultAddress)
        object.write("isCorpse", isCorpse)
        object.write("isNonFatal", isNonFatal)
        object.write("isSimulated", isSimulated)
        object.write("kernReturn", kernReturn)
        object.write("meaning", meaning)
        object.write("message", message)
        object.write("note", note)
        object.write("possiblePointerAuthenticationFailure", possiblePointerAuthenticationFailure)
        object.write("signal", signal)
        object.write("subtype", subtype)
        object.write("type", type)
    }
}

extension CrashReport.Termination: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order (`reasons` always).
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("byPid", byPid)
        object.write("byProcess", byProcess)
        object.write("code", code)
        object.write("description", description)
        object.write("details", details)
        object.write("flags", flags)
        object.write("indicator", indicator)
        object.write("namespace", namespace)
        object.write("raw", raw)
        object.write("reasons", reasons)
    }
}
