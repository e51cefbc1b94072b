import APMInspectCore

// The top level of a report is about forty members: through the encoder they were kept, sorted and written one by
// one for every report, about as much as writing its frames. Written directly, the whole report reaches the output
// without the encoder's member sorting.
extension CrashReport: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order: the optional ones only when present,
    /// `unknownKeys` as its wrapper's coding writes it (nothing for nil).
    public func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("appBuild", appBuild)
        object.write("appVersion", appVersion)
        object.write("applicationSpecificInformation", applicationSpecificInformation)
        object.write("betaIdentifier", betaIdentifier)
        object.write("binaryImages", binaryImages)
        object.write("blocks", blocks)
        object.write("bundleId", bundleId)
        object.write("coalition", coalition)
        object.write("coalitionId", coalitionId)
        object.write("codeType", codeType)
        object.write("crashReporterKey", crashReporterKey)
        object.write("crashedThread", crashedThread)
        object.write("date", date)
        object.write("deviceName", deviceName)
        object.write("exception", exception)
        object.write("hardwareModel", hardwareModel)
        object.write("header", header)
        object.write("incidentID", incidentID)
        object.write("isNotACrash", isNotACrash)
        object.write("isPartial", isPartial)
        object.write("isTranslated", isTranslated)
        object.write("lastExceptionBacktrace", lastExceptionBacktrace)
        object.write("launchTime", launchTime)
        object.write("osBuild", osBuild)
        object.write("osName", osName)
        object.write("osVersion", osVersion)
        object.write("osVersionNumber", osVersionNumber)
        object.write("parentPid", parentPid)
        object.write("parentProcess", parentProcess)
        object.write("path", path)
        object.write("pid", pid)
        object.write("platform", platform.rawValue)
        object.write("process", process)
        object.write("releaseType", releaseType)
        object.write("reportVersion", reportVersion)
        object.write("responsiblePid", responsiblePid)
        object.write("responsibleProcess", responsibleProcess)
        object.write("role", role)
        object.write("signature", signature)
        object.write("signatureFrames", signatureFrames)
        object.write("sourceFormat", sourceFormat.rawValue)
        object.write("termination", termination)
        object.write("threads", threads)
        keptUnknownKeys.write("unknownKeys", into: &object)
    }
}
