import APMInspectCore
import CrashReportParsing
import MetricKitParsing

extension BackendIncident {
    /// The incident of a MetricKit crash, hang, CPU or disk-write diagnostic; nil for other kinds (launches, bare
    /// call trees), which no backend convention names.
    package init?(metricKit diagnostic: MetricKitDiagnostic, payload: MetricKitPayload?) {
        let kind: Kind
        let type: String
        let mechanism: String
        switch diagnostic.kind {
        case .crash:
            kind = .metricKitCrash
            type = "MXCrashDiagnostic"
            mechanism = "mx_crash_diagnostic"
        case .hang:
            kind = .metricKitHang
            type = "MXHangDiagnostic"
            mechanism = "mx_hang_diagnostic"
        case .cpuException:
            kind = .metricKitCPUException
            type = "MXCPUExceptionDiagnostic"
            mechanism = "mx_cpu_exception"
        case .diskWriteException:
            kind = .metricKitDiskWriteException
            type = "MXDiskWriteExceptionDiagnostic"
            mechanism = "mx_disk_write_exception"
        default:
            return nil
        }
        if kind == .metricKitCrash, let report = diagnostic.crashReport,
            var crash = BackendIncident(crash: report)
        {
            crash.kind = kind
            crash.mechanismType = mechanism
            if let objc = diagnostic.objectiveCException, let name = objc.name, !name.isEmpty {
                crash.exceptionType = name
                crash.exceptionValue = objc.message ?? crash.exceptionValue
            }
            self = crash
        } else {
            self = BackendIncident(kind: kind, exceptionType: type, mechanismType: mechanism)
            fillThreads(from: diagnostic.callTree)
            if kind == .metricKitCrash {
                signal = diagnostic.signal.map { Signal(number: $0, name: AppleCodes.signalName($0)) }
                if let number = diagnostic.exceptionType {
                    machException = MachException(
                        exception: number,
                        name: AppleCodes.machExceptionName(number),
                        code: diagnostic.exceptionCode.flatMap { UInt64(exactly: $0) }
                    )
                    if let name = AppleCodes.machExceptionName(number) { exceptionType = name }
                }
            }
        }
        isFatal = kind == .metricKitCrash
        if kind != .metricKitCrash { exceptionValue = Self.metricKitValue(diagnostic) }
        let metadata = diagnostic.metadata
        hardwareModel = metadata.deviceType ?? hardwareModel
        deviceArch = metadata.platformArchitecture ?? deviceArch
        osName = AppleCodes.osName(metadata.osName) ?? osName
        osVersion = metadata.osVersionNumber ?? osVersion
        osBuild = metadata.osBuild ?? osBuild
        osRawDescription = metadata.osVersion ?? osRawDescription
        bundleId = metadata.bundleIdentifier ?? bundleId
        appVersion = metadata.appVersion ?? appVersion
        appBuild = metadata.appBuildVersion ?? appBuild
        // MetricKit says when the payload's window ended, not when the event happened: OpenTelemetry Swift stamps
        // the diagnostic with `timeStampEnd` too.
        if timestamp == nil { timestamp = payload?.end }
        metricKitAttributes = Self.attributes(of: diagnostic)
    }

    private static func metricKitValue(_ diagnostic: MetricKitDiagnostic) -> String? {
        switch diagnostic.kind {
        case .hang: diagnostic.hangDuration.map { "hang of \($0.raw)" }
        case .cpuException:
            diagnostic.totalCPUTime.map { cpu in
                "\(cpu.raw) of CPU" + (diagnostic.totalSampledTime.map { " in \($0.raw)" } ?? "")
            }
        case .diskWriteException: diagnostic.writesCaused.map { "\($0.raw) written" }
        default: nil
        }
    }

    /// The diagnostic's figures under OpenTelemetry Swift's `metrickit.diagnostic.*` names.
    static func attributes(of diagnostic: MetricKitDiagnostic) -> [(key: String, value: AttributeValue)] {
        var attributes: [(key: String, value: AttributeValue)] = []
        func number(_ key: String, _ measurement: MetricKitMeasurement?) {
            guard let value = measurement?.normalized ?? measurement?.value, value.isFinite else { return }
            attributes.append((key, .double(value)))
        }
        switch diagnostic.kind {
        case .hang:
            number("metrickit.diagnostic.hang.hang_duration", diagnostic.hangDuration)
        case .cpuException:
            number("metrickit.diagnostic.cpu_exception.total_cpu_time", diagnostic.totalCPUTime)
            number("metrickit.diagnostic.cpu_exception.total_sampled_time", diagnostic.totalSampledTime)
        case .diskWriteException:
            number("metrickit.diagnostic.disk_write_exception.total_writes_caused", diagnostic.writesCaused)
        case .appLaunch:
            number("metrickit.diagnostic.app_launch.launch_duration", diagnostic.launchDuration)
        case .crash:
            let prefix = "metrickit.diagnostic.crash.exception."
            if let code = diagnostic.exceptionCode { attributes.append((prefix + "code", .int(code))) }
            if let type = diagnostic.exceptionType {
                attributes.append((prefix + "mach_exception.type", .int(type)))
                if let name = AppleCodes.machExceptionName(type) {
                    attributes.append((prefix + "mach_exception.name", .string(name)))
                }
            }
            if let signal = diagnostic.signal {
                attributes.append((prefix + "signal", .int(signal)))
                if let name = AppleCodes.signalName(signal) {
                    attributes.append((prefix + "signal.name", .string(name)))
                }
            }
            if let reason = diagnostic.terminationReason {
                attributes.append((prefix + "termination_reason", .string(reason)))
            }
            if let objc = diagnostic.objectiveCException {
                if let type = objc.type { attributes.append((prefix + "objc.type", .string(type))) }
                if let message = objc.message { attributes.append((prefix + "objc.message", .string(message))) }
                if let name = objc.name { attributes.append((prefix + "objc.name", .string(name))) }
                if let className = objc.className {
                    attributes.append((prefix + "objc.classname", .string(className)))
                }
            }
        default:
            break
        }
        return attributes
    }

    /// One thread per call stack: from the executing frame (a root of the inverted tree) along the heaviest caller
    /// at each level, which for a crash or hang is the stack's single chain.
    mutating func fillThreads(from tree: MetricKitCallTree?) {
        guard let tree else { return }
        var children: [Int: [Int]] = [:]
        for frame in tree.frames {
            if let parent = frame.parent { children[parent, default: []].append(frame.id) }
        }
        func frame(_ id: Int) -> MetricKitCallTree.Frame? {
            tree.frames.indices.contains(id) && tree.frames[id].id == id
                ? tree.frames[id] : tree.frames.first { $0.id == id }
        }
        var imagesByUUID: [String: Image] = [:]
        var order: [String] = []
        var threads: [Thread] = []
        for stack in tree.stacks.prefix(Self.maximumThreads) {
            let root = stack.rootFrames.compactMap(frame).max { $0.totalSamples < $1.totalSamples }
            var chain: [Frame] = []
            var current = root
            var seen = Set<Int>()
            while let node = current, chain.count < Self.maximumFrames, seen.insert(node.id).inserted {
                let uuid = node.binaryUUID.map { String($0.filter { $0 != "-" }).lowercased() }
                chain.append(
                    Frame(
                        instructionAddress: node.address?.value,
                        imageAddress: node.loadAddress?.value,
                        package: node.binaryName,
                        imageName: node.binaryName,
                        imageOffset: node.imageOffset ?? node.offsetIntoBinaryTextSegment,
                        imageUUID: uuid
                    )
                )
                if let uuid, uuid.utf8.count == 32, let load = node.loadAddress?.value, imagesByUUID[uuid] == nil,
                    imagesByUUID.count < Self.maximumImages
                {
                    imagesByUUID[uuid] = Image(uuid: uuid, address: load, codeFile: node.binaryName ?? "")
                    order.append(uuid)
                }
                current = children[node.id]?.compactMap(frame).max { $0.totalSamples < $1.totalSamples }
            }
            threads.append(
                Thread(
                    id: stack.index,
                    name: nil,
                    crashed: stack.threadAttributed == true,
                    isMain: false,
                    frames: chain
                )
            )
        }
        self.threads = threads
        images = order.compactMap { imagesByUUID[$0] }
        exceptionThread = threads.first { $0.crashed }?.id ?? threads.first?.id
    }
}
