import APMInspectCore

/// Maps the JSON of a JetsamEvent body (or of pasted pieces of one) onto the model.
struct JetsamBodyReader {
    var fields: JetsamFieldReader
    let maxProcesses: Int
    private(set) var skippedProcesses = 0
    /// When true, `processes` lists are gathered in ``gatheredProcesses`` instead of read: the memory-limit fast
    /// path reads the body with this code and only the killed processes of those lists.
    var gathersProcesses = false
    private(set) var gatheredProcesses: [JSONElement] = []
    /// Processes whose fields stood among the body's (see ``readBody(_:into:unknown:)``), read while gathering.
    private(set) var gatheredFlattened: [JetsamEvent.Process] = []
    /// True when a container recorded by its byte range (fast path only) was not JSON: what it held is missing.
    private(set) var missedOpaqueContent = false

    init(options: JetsamParseOptions) {
        self.maxProcesses = options.maxProcesses
        self.fields = JetsamFieldReader(options: options)
    }

    var diagnostics: [Diagnostic] { fields.diagnostics }

    // MARK: - Shape tests

    private static let bodyKeys: Set<String> = [
        "crashReporterKey", "kernel", "product", "incident", "date", "build", "timeDelta", "memoryStatus",
        "largestProcess", "genCounter", "processes", "codeSigningMonitor",
    ]

    /// True for an object with at least one key only a JetsamEvent body has.
    static func looksLikeBody(_ element: JSONElement) -> Bool {
        guard element.kind == .object else { return false }
        var hits = 0
        element.forEachMember { key, _ in if bodyKeys.contains(key) { hits += 1 } }
        return element["processes"] != nil || element["memoryStatus"] != nil || element["largestProcess"] != nil
            || hits >= 2
    }

    /// True for a fragment holding a key only a body has, or the top-level `pageSize`: a piece of a body that an
    /// unbalanced brace cut off from the rest.
    static func looksLikeBodyPiece(_ element: JSONElement) -> Bool {
        guard element.kind == .object else { return false }
        var hit = false
        element.forEachMember { key, _ in if bodyKeys.contains(key) || key == "pageSize" { hit = true } }
        return hit
    }

    /// True for an object shaped like a `processes[]` entry.
    static func looksLikeProcess(_ element: JSONElement) -> Bool {
        guard element.kind == .object else { return false }
        let hasPages = element["rpages"] != nil || element["lifetimeMax"] != nil
        let hasIdentity = element["states"] != nil || element["uuid"] != nil || element["pid"] != nil
        return hasPages && hasIdentity
    }

    // MARK: - Body

    mutating func readBody(_ body: JSONElement, into event: inout JetsamEvent, unknown: inout [JSONValue.Member]) {
        // Excerpts that leave out the line opening `"processes" : [` put a process's fields among the body's: they
        // are gathered in runs (a repeated key starts the next process) and read as processes when shaped like one.
        var runs: [[(String, JSONElement)]] = []
        body.forEachMember { key, value in
            if Self.processOnlyKeys.contains(key) {
                if runs.isEmpty || runs[runs.count - 1].contains(where: { $0.0 == key }) { runs.append([]) }
                runs[runs.count - 1].append((key, value))
                return
            }
            switch key {
            case "crashReporterKey":
                event.crashReporterKey = event.crashReporterKey ?? fields.string(value, key, "", unknown: &unknown)
            case "kernel": event.kernel = event.kernel ?? fields.string(value, key, "", unknown: &unknown)
            case "product": event.product = event.product ?? fields.string(value, key, "", unknown: &unknown)
            case "incident": event.incidentID = fields.string(value, key, "", unknown: &unknown) ?? event.incidentID
            case "date":
                if let text = fields.string(value, key, "", unknown: &unknown) {
                    event.date = AppleTimestamp(text)
                    if event.date == nil { unknown.append(JSONValue.Member(key: key, value: .string(text))) }
                }
            case "build":
                if let text = fields.string(value, key, "", unknown: &unknown) { applyBuild(text, to: &event) }
            case "bug_type": event.bugType = event.bugType ?? fields.string(value, key, "", unknown: &unknown)
            case "timeDelta": event.timeDelta = fields.uint(value, key, "", unknown: &unknown)
            case "largestProcess": event.largestProcess = fields.string(value, key, "", unknown: &unknown)
            case "genCounter": event.genCounter = fields.uint(value, key, "", unknown: &unknown)
            case "codeSigningMonitor": event.codeSigningMonitor = fields.int(value, key, "", unknown: &unknown)
            case "pageSize":
                if let size = fields.uint(value, key, "", unknown: &unknown), event.pageSizeSource == nil {
                    event.pageSize = size
                    event.pageSizeSource = "pageSize"
                }
            case "memoryStatus":
                event.memoryStatus = readMemoryStatus(value, unknown: &unknown)
            case "processes":
                if gathersProcesses, value.kind == .array {
                    gatheredProcesses.append(contentsOf: value.elements)
                } else {
                    readProcesses(value, into: &event.processes, unknown: &unknown)
                }
            case "notes": event.notes = fields.strings(value, key, "", unknown: &unknown)
            case "eventReason": event.eventReason = fields.string(value, key, "", unknown: &unknown)
            case "eventCode": event.eventCode = value.string ?? value.rawText
            default:
                fields.keep(key, value, in: &unknown)
            }
        }
        for run in runs { readFlattenedProcess(run, into: &event, unknown: &unknown) }
    }

    /// Keys only a `processes[]` entry has: never a body's.
    static let processOnlyKeys: Set<String> = [
        "pid", "name", "uuid", "states", "rpages", "lifetimeMax", "purgeable", "fds", "cpuTime", "reason", "age",
        "killDelta", "genCount", "idleDelta", "coalition", "pageSpike", "priority", "physicalPages",
        "freeze_skip_reason:", "freeze_skip_reason", "mem_regions", "csFlags", "csTrustLevel",
    ]

    /// A run of process fields found among the body's: a process when it has pages and an identity (as
    /// ``looksLikeProcess(_:)`` asks of an object), else kept in the body's unknown keys as before.
    private mutating func readFlattenedProcess(
        _ run: [(String, JSONElement)],
        into event: inout JetsamEvent,
        unknown: inout [JSONValue.Member]
    ) {
        let keys = Set(run.map(\.0))
        let hasPages = keys.contains("rpages") || keys.contains("lifetimeMax")
        let hasIdentity = keys.contains("states") || keys.contains("uuid") || keys.contains("pid")
        guard hasPages && hasIdentity, let first = run.first?.1 else {
            for (key, value) in run { fields.keep(key, value, in: &unknown) }
            return
        }
        let target = gathersProcesses ? gatheredFlattened.count : event.processes.count
        guard target < maxProcesses else {
            skippedProcesses += 1
            return
        }
        let path = "processes[\(target)]"
        fields.add(
            .jetsamFlattenedProcess,
            .warning,
            "process fields at the top level of the body (the excerpt left out the line opening "
                + "\"processes\" : [); read them as \(path)",
            at: first.document.location(ofByte: first.byteOffset, keyPath: path)
        )
        let process = readProcessFields(path: path) { visit in
            for (key, value) in run { visit(key, value) }
        }
        if gathersProcesses { gatheredFlattened.append(process) } else { event.processes.append(process) }
    }

    func applyBuild(_ text: String, to event: inout JetsamEvent) {
        let version = OSVersion(parsing: text)
        if event.osVersion == nil || event.osVersion?.isEmpty == true {
            event.osName = version.name.isEmpty ? nil : version.name
            event.osVersion = version.version.isEmpty ? nil : version.version
            event.osBuild = version.build.isEmpty ? nil : version.build
            event.isBetaBuild = version.isBeta
            event.platform = version.platform
        }
    }

    /// A `processes` that is not an array is kept verbatim in the body's `unknown`, with a warning.
    mutating func readProcesses(
        _ list: JSONElement,
        into processes: inout [JetsamEvent.Process],
        unknown: inout [JSONValue.Member]
    ) {
        guard list.kind == .array else {
            fields.mismatch(list, "processes", "", expected: "an array of processes", unknown: &unknown)
            return
        }
        processes.reserveCapacity(processes.count + list.count)
        for element in list.elements {
            appendProcess(element, to: &processes)
        }
    }

    mutating func appendProcess(_ element: JSONElement, to processes: inout [JetsamEvent.Process]) {
        let index = processes.count
        guard index < maxProcesses else {
            skippedProcesses += 1
            return
        }
        guard element.kind == .object else {
            fields.add(
                .jetsamProcessNotObject,
                .warning,
                "a processes entry is not an object; skipped it",
                at: element.document.location(ofByte: element.byteOffset, keyPath: "processes[\(index)]")
            )
            return
        }
        processes.append(readProcess(element, path: "processes[\(index)]"))
    }

    // MARK: - Process

    mutating func readProcess(_ object: JSONElement, path: String) -> JetsamEvent.Process {
        let process = readProcessFields(path: path) { visit in object.forEachMember(visit) }
        if object.isTruncated {
            fields.add(
                .jetsamCutOffProcess,
                .warning,
                "this process entry was cut off; its remaining fields are missing",
                at: object.document.location(ofByte: object.byteOffset, keyPath: path)
            )
        }
        return process
    }

    /// The fields of one process, from `members` (an object's, or a run of them found among the body's).
    private mutating func readProcessFields(
        path: String,
        members: (_ visit: (String, JSONElement) -> Void) -> Void
    ) -> JetsamEvent.Process {
        var process = JetsamEvent.Process()
        var unknown: [JSONValue.Member] = []
        members { key, value in
            switch key {
            case "pid": process.pid = fields.int(value, key, path, unknown: &unknown)
            case "name": process.name = fields.string(value, key, path, unknown: &unknown)
            case "uuid": process.uuid = fields.string(value, key, path, unknown: &unknown)
            case "states": process.states = fields.strings(value, key, path, unknown: &unknown) ?? []
            case "rpages": process.rpages = fields.uint(value, key, path, unknown: &unknown)
            case "lifetimeMax": process.lifetimeMax = fields.uint(value, key, path, unknown: &unknown)
            case "purgeable": process.purgeable = fields.uint(value, key, path, unknown: &unknown)
            case "fds": process.fds = fields.uint(value, key, path, unknown: &unknown)
            case "cpuTime": process.cpuTime = fields.double(value, key, path, unknown: &unknown)
            case "reason": process.reason = fields.string(value, key, path, unknown: &unknown)
            case "age": process.age = fields.uint(value, key, path, unknown: &unknown)
            case "killDelta": process.killDelta = fields.uint(value, key, path, unknown: &unknown)
            case "genCount": process.genCount = fields.uint(value, key, path, unknown: &unknown)
            case "idleDelta": process.idleDelta = fields.uint(value, key, path, unknown: &unknown)
            case "coalition": process.coalition = fields.uint(value, key, path, unknown: &unknown)
            case "pageSpike": process.pageSpike = fields.uint(value, key, path, unknown: &unknown)
            case "priority": process.priority = fields.int(value, key, path, unknown: &unknown)
            case "physicalPages":
                process.physicalPages = readPhysicalPages(value, path: path, unknown: &unknown)
            case "freeze_skip_reason:", "freeze_skip_reason":
                process.freezeSkipReason = fields.string(value, key, path, unknown: &unknown)
            case "mem_regions": process.memRegions = fields.uint(value, key, path, unknown: &unknown)
            case "csFlags": process.csFlags = fields.uint(value, key, path, unknown: &unknown)
            case "csTrustLevel": process.csTrustLevel = fields.uint(value, key, path, unknown: &unknown)
            case "neuralPages": process.neuralPages = fields.uint(value, key, path, unknown: &unknown)
            default: fields.keep(key, value, in: &unknown)
            }
        }
        if !unknown.isEmpty { process.unknownKeys = .object(unknown) }
        return process
    }

    /// `path` is the process's; a value that is not an object is kept in the process's `processUnknown`.
    mutating func readPhysicalPages(
        _ object: JSONElement,
        path processPath: String,
        unknown processUnknown: inout [JSONValue.Member]
    ) -> JetsamEvent.PhysicalPages? {
        guard object.kind == .object else {
            fields.mismatch(object, "physicalPages", processPath, expected: "an object", unknown: &processUnknown)
            return nil
        }
        let path = JetsamFieldReader.join(processPath, "physicalPages")
        var unknown: [JSONValue.Member] = []
        var pages = JetsamEvent.PhysicalPages()
        object.forEachMember { key, value in
            switch key {
            case "internal": pages.internal = fields.uints(value, key, path, unknown: &unknown)
            case "frozen_to_swap_pages": pages.frozenToSwapPages = fields.uint(value, key, path, unknown: &unknown)
            default: fields.keep(key, value, in: &unknown)
            }
        }
        if !unknown.isEmpty { pages.unknownKeys = .object(unknown) }
        return pages
    }

    // MARK: - Memory status

    /// A value that is not an object is kept in the body's `bodyUnknown`, with a warning.
    mutating func readMemoryStatus(
        _ object: JSONElement,
        unknown bodyUnknown: inout [JSONValue.Member]
    ) -> JetsamEvent.MemoryStatus? {
        let path = "memoryStatus"
        guard object.kind == .object else {
            fields.mismatch(object, path, "", expected: "an object", unknown: &bodyUnknown)
            return nil
        }
        var unknown: [JSONValue.Member] = []
        var status = JetsamEvent.MemoryStatus()
        object.forEachMember { key, value in
            switch key {
            case "pageSize": status.pageSize = fields.uint(value, key, path, unknown: &unknown)
            case "compressorSize": status.compressorSize = fields.uint(value, key, path, unknown: &unknown)
            case "compressions": status.compressions = fields.uint(value, key, path, unknown: &unknown)
            case "decompressions": status.decompressions = fields.uint(value, key, path, unknown: &unknown)
            case "uncompressed": status.uncompressed = fields.uint(value, key, path, unknown: &unknown)
            case "zoneMapCap": status.zoneMapCap = fields.uint(value, key, path, unknown: &unknown)
            case "zoneMapSize": status.zoneMapSize = fields.uint(value, key, path, unknown: &unknown)
            case "largestZone": status.largestZone = fields.string(value, key, path, unknown: &unknown)
            case "largestZoneSize": status.largestZoneSize = fields.uint(value, key, path, unknown: &unknown)
            case "memoryPages":
                // Recorded by its byte range only when the fast path parsed the body (see `opaqueDepth`).
                if let pages = try? value.expanded() {
                    status.memoryPages = readMemoryPages(pages, unknown: &unknown)
                } else {
                    status.memoryPages = nil
                    missedOpaqueContent = true
                }
            default: fields.keep(key, value, in: &unknown)
            }
        }
        if !unknown.isEmpty { status.unknownKeys = .object(unknown) }
        return status
    }

    /// A value that is not an object is kept in the memory status's `statusUnknown`, with a warning.
    mutating func readMemoryPages(
        _ object: JSONElement,
        unknown statusUnknown: inout [JSONValue.Member]
    ) -> JetsamEvent.MemoryPages? {
        let path = "memoryStatus.memoryPages"
        guard object.kind == .object else {
            fields.mismatch(object, "memoryPages", "memoryStatus", expected: "an object", unknown: &statusUnknown)
            return nil
        }
        var unknown: [JSONValue.Member] = []
        var pages = JetsamEvent.MemoryPages()
        object.forEachMember { key, value in
            switch key {
            case "active": pages.active = fields.uint(value, key, path, unknown: &unknown)
            case "throttled": pages.throttled = fields.uint(value, key, path, unknown: &unknown)
            case "fileBacked": pages.fileBacked = fields.uint(value, key, path, unknown: &unknown)
            case "wired": pages.wired = fields.uint(value, key, path, unknown: &unknown)
            case "anonymous": pages.anonymous = fields.uint(value, key, path, unknown: &unknown)
            case "purgeable": pages.purgeable = fields.uint(value, key, path, unknown: &unknown)
            case "inactive": pages.inactive = fields.uint(value, key, path, unknown: &unknown)
            case "free": pages.free = fields.uint(value, key, path, unknown: &unknown)
            case "speculative": pages.speculative = fields.uint(value, key, path, unknown: &unknown)
            default: fields.keep(key, value, in: &unknown)
            }
        }
        if !unknown.isEmpty { pages.unknownKeys = .object(unknown) }
        return pages
    }
}
