import APMInspectCore

extension MetricKitReader {
    /// Gives each frame the name its binary has in the Codable tree's `binaryInfo`.
    ///
    /// The iOS/macOS 27 `CallStackTree` names a binary once (`binaryInfo: [UUID: CallStackTree.BinaryInfo]`) and
    /// its frames carry only the UUID, while everything downstream (labels, the crash model's images, the inferred
    /// process) reads `binaryName` on the frame. `UUID` is not `CodingKeyRepresentable`, so synthesized `Codable`
    /// writes the dictionary as a flat `[uuid, info, uuid, info …]` array; an object keyed by UUID is read too, with
    /// a note. The whole value is kept among the tree's unknown keys when an entry holds more than a name, so
    /// nothing Apple adds there is lost.
    func nameBinaries(
        _ tree: inout MetricKitCallTree,
        from binaryInfo: JSONElement,
        keyPath: String,
        findings: inout MetricKitFindings
    ) {
        var names: [String: String] = [:]
        var holdsMore = false
        func note(_ uuid: String, _ info: JSONElement, at path: String) {
            guard info.kind == .object else {
                findings.add(.warning, .metricKitWrongType, "a binary's info is not an object", at: info, keyPath: path)
                return
            }
            info.forEachMember { key, value in
                switch key {
                case "name", "binaryName": if let name = value.string { names[uuid.uppercased()] = name }
                default: holdsMore = true
                }
            }
        }
        switch binaryInfo.kind {
        case .array:
            var pendingUUID: String?
            for (index, element) in binaryInfo.elements.enumerated() {
                let path = "\(keyPath)[\(index)]"
                if let uuid = pendingUUID {
                    note(uuid, element, at: path)
                    pendingUUID = nil
                } else if let uuid = element.string {
                    pendingUUID = uuid
                } else {
                    findings.add(
                        .warning,
                        .metricKitWrongType,
                        "binaryInfo alternates UUIDs and binaries: this entry should be a UUID string",
                        at: element,
                        keyPath: path
                    )
                    return
                }
            }
        case .object:
            findings.add(
                .note,
                .metricKitCodableVariant,
                "binaryInfo is an object keyed by UUID, not the [uuid, info …] array synthesized Codable writes: read as such",
                at: binaryInfo,
                keyPath: keyPath
            )
            binaryInfo.forEachMember { uuid, info in note(uuid, info, at: Self.join(keyPath, uuid)) }
        default:
            findings.add(.warning, .metricKitWrongType, "binaryInfo is not an array", at: binaryInfo, keyPath: keyPath)
            return
        }
        if holdsMore {
            var unknown =
                tree.unknownKeys.flatMap { value -> [JSONValue.Member]? in
                    if case .object(let members) = value { return members }
                    return nil
                } ?? []
            unknown.append(JSONValue.Member(key: "binaryInfo", value: binaryInfo.materialized))
            tree.unknownKeys = .object(unknown)
        }
        guard !names.isEmpty else { return }
        for index in tree.frames.indices where tree.frames[index].binaryName == nil {
            if let uuid = tree.frames[index].binaryUUID, let name = names[uuid.uppercased()] {
                tree.frames[index].binaryName = name
            }
        }
    }
}
