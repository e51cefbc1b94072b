import APMInspectCore

/// Reads a system watchdog crash (bug_type 409): the termination, the notes, and the process and thread tables
/// nested under `stackshot.processByPid`, with frames as `[imageIndex, offset]` pairs.
///
/// Both real shapes are read: with a `build` and the watched process's pid, and with `pid` -1 and no build (the
/// watched process is then found by name). Members of the wrong type are skipped with a diagnostic; frames, threads
/// and processes are capped (`maxFrames` …) so that a crafted file costs time and memory in proportion to it.
package struct SystemWatchdogReader: Sendable {
    package var maxProcesses = 8192
    package var maxThreads = 65_536
    package var maxFrames = 1 << 20
    package var maxImages = 65_536

    package init() {}

    /// - Throws: `InputError` when the body is not JSON or not an object.
    package func parse(_ container: IPSContainer) throws(InputError) -> (
        report: SystemWatchdogReport, diagnostics: [Diagnostic]
    ) {
        let document = try container.parseJSONBody()
        var diagnostics = container.diagnostics + document.diagnostics
        let root = document.root
        guard root.kind == .object else {
            throw InputError(
                .wrongKind,
                "the body of a system watchdog report is a JSON object; this one is not",
                at: document.location(ofByte: root.byteOffset)
            )
        }
        let bugType = container.bugType
        var report = SystemWatchdogReport(
            header: container.header,
            bugType: bugType?.code,
            bugTypeName: bugType?.name,
            process: root["procName"]?.string ?? root["procname"]?.string ?? container.header?.name,
            pid: root["pid"]?.int64,
            build: root["build"]?.string,
            modelCode: root["modelCode"]?.string ?? root["product"]?.string,
            displayState: root["displayState"]?.string,
            thermalPressureLevel: root["thermalPressureLevel"]?.string,
            termination: nil,
            reportNotes: strings(root["reportNotes"], "reportNotes", &diagnostics),
            images: [],
            processes: [],
            threadCount: 0,
            frameCount: 0
        )
        if let pid = root["pid"], report.pid == nil {
            diagnostics.append(wrongType("pid", "an integer", pid))
        }
        if let termination = root["termination"] {
            if termination.kind == .object {
                report.termination = SystemWatchdogReport.Termination(
                    namespace: termination["namespace"]?.string,
                    code: termination["code"]?.int64,
                    indicator: termination["indicator"]?.string,
                    details: strings(termination["details"], "termination.details", &diagnostics)
                )
            } else {
                diagnostics.append(wrongType("termination", "an object", termination))
            }
        } else {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .watchdogNoTermination,
                    "the report has no termination: the watchdog's reason is unknown"
                )
            )
        }
        let stackshot = root["stackshot"]
        report.images = images(stackshot?["binaryImages"] ?? root["binaryImages"], &diagnostics)
        if let table = stackshot?["processByPid"] {
            readProcesses(table, into: &report, &diagnostics)
        } else {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogNoProcessTable,
                    "the report has no stackshot.processByPid: no process or thread is known"
                )
            )
        }
        if report.pid == -1 {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .watchdogUnknownPID,
                    "the report's pid is -1: the watched process is found by its name in the stackshot"
                )
            )
        }
        return (report, diagnostics)
    }

    private func wrongType(_ key: String, _ expected: String, _ element: JSONElement) -> Diagnostic {
        Diagnostic(
            .warning,
            .watchdogWrongType,
            "`\(key)` is not \(expected); skipped",
            at: element.document.location(ofByte: element.byteOffset, keyPath: key)
        )
    }

    private func strings(_ element: JSONElement?, _ key: String, _ diagnostics: inout [Diagnostic]) -> [String] {
        guard let element else { return [] }
        guard element.kind == .array else {
            if let text = element.string { return [text] }
            diagnostics.append(wrongType(key, "a list of strings", element))
            return []
        }
        return element.elements.prefix(4096).compactMap(\.string)
    }

    /// `binaryImages`: objects (`uuid`, `name`, `path`, `base`) or arrays (`[uuid, loadAddress, path]`).
    private func images(_ element: JSONElement?, _ diagnostics: inout [Diagnostic]) -> [SystemWatchdogReport.Image] {
        guard let element else { return [] }
        guard element.kind == .array else {
            diagnostics.append(wrongType("binaryImages", "a list", element))
            return []
        }
        var images: [SystemWatchdogReport.Image] = []
        for (index, item) in element.elements.enumerated() {
            guard index < maxImages else {
                diagnostics.append(
                    Diagnostic(.warning, .watchdogImageListTruncated, "kept the first \(maxImages) images")
                )
                break
            }
            var image = SystemWatchdogReport.Image(index: index)
            if item.kind == .object {
                image.uuid = item["uuid"]?.string
                image.name = item["name"]?.string
                image.path = item["path"]?.string
                image.loadAddress = (item["base"]?.uint64 ?? item["loadAddress"]?.uint64).map(HexValue.init)
            } else if item.kind == .array {
                let parts = Array(item.elements.prefix(3))
                image.uuid = parts.first?.string
                image.loadAddress = parts.count > 1 ? parts[1].uint64.map(HexValue.init) : nil
                // The third member is a path, or a one-letter source code (`S`, `P`) that names no image.
                image.path = parts.count > 2 ? parts[2].string.flatMap { $0.contains("/") ? $0 : nil } : nil
            }
            if image.name == nil, let path = image.path {
                image.name = path.split(separator: "/").last.map(String.init)
            }
            images.append(image)
        }
        return images
    }

    private func readProcesses(
        _ table: JSONElement,
        into report: inout SystemWatchdogReport,
        _ diagnostics: inout [Diagnostic]
    ) {
        guard table.kind == .object else {
            diagnostics.append(wrongType("stackshot.processByPid", "an object", table))
            return
        }
        var processes: [SystemWatchdogReport.Process] = []
        var droppedProcesses = 0
        var droppedThreads = 0
        var droppedFrames = 0
        var badFrames = 0
        var outOfRange = 0
        table.forEachMember { key, value in
            guard value.kind == .object else {
                diagnostics.append(wrongType("stackshot.processByPid.\(key)", "an object", value))
                return
            }
            guard processes.count < maxProcesses else {
                droppedProcesses += 1
                return
            }
            var process = SystemWatchdogReport.Process(
                pid: value["pid"]?.int64 ?? Int64(key),
                name: value["procname"]?.string ?? value["procName"]?.string,
                isWatchedProcess: false,
                threads: []
            )
            if let threads = value["threadById"], threads.kind == .object {
                threads.forEachMember { threadKey, item in
                    guard item.kind == .object else { return }
                    guard report.threadCount < maxThreads else {
                        droppedThreads += 1
                        return
                    }
                    report.threadCount += 1
                    var thread = SystemWatchdogReport.Thread(
                        id: item["id"]?.int64 ?? Int64(threadKey),
                        name: item["name"]?.string,
                        state: item["state"].map {
                            $0.kind == .array ? Array($0.elements.prefix(16).compactMap(\.string)) : []
                        }
                            ?? [],
                        basePriority: item["basePriority"]?.int64,
                        userMicroseconds: item["user_usec"]?.int64,
                        systemMicroseconds: item["system_usec"]?.int64,
                        frames: []
                    )
                    if let frames = item["userFrames"], frames.kind == .array {
                        for pair in frames.elements {
                            guard report.frameCount < maxFrames else {
                                droppedFrames += 1
                                continue
                            }
                            guard let frame = frame(pair, images: report.images, outOfRange: &outOfRange) else {
                                badFrames += 1
                                continue
                            }
                            report.frameCount += 1
                            thread.frames.append(frame)
                        }
                    }
                    process.threads.append(thread)
                }
            } else if let threads = value["threadById"] {
                diagnostics.append(wrongType("stackshot.processByPid.\(key).threadById", "an object", threads))
            }
            process.threads.sort { ($0.id ?? .max) < ($1.id ?? .max) }
            processes.append(process)
        }
        let watchedIndex =
            report.pid.flatMap { pid in pid >= 0 ? processes.firstIndex { $0.pid == pid } : nil }
            ?? report.process.flatMap { name in processes.firstIndex { $0.name == name } }
        if let watchedIndex { processes[watchedIndex].isWatchedProcess = true }
        processes.sort { lhs, rhs in
            if lhs.isWatchedProcess != rhs.isWatchedProcess { return lhs.isWatchedProcess }
            return (lhs.pid ?? .max) < (rhs.pid ?? .max)
        }
        report.processes = processes
        if watchedIndex == nil, report.process != nil {
            diagnostics.append(
                Diagnostic(.note, .watchdogProcessNotInStackshot, "the watched process is not in the stackshot")
            )
        }
        if droppedProcesses > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogProcessListTruncated,
                    "kept the first \(maxProcesses) processes; \(droppedProcesses) more were left out"
                )
            )
        }
        if droppedThreads > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogThreadListTruncated,
                    "kept the first \(maxThreads) threads; \(droppedThreads) more were left out"
                )
            )
        }
        if droppedFrames > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogFrameListTruncated,
                    "kept the first \(maxFrames) frames; \(droppedFrames) more were left out"
                )
            )
        }
        if badFrames > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogUnreadableFrame,
                    "\(badFrames) frames are not [imageIndex, offset] pairs of non-negative integers; skipped"
                )
            )
        }
        if outOfRange > 0, !report.images.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .watchdogFrameImageOutOfRange,
                    "\(outOfRange) frames name an image index past the \(report.images.count) images; kept without an image"
                )
            )
        }
    }

    /// `[imageIndex, offset]`; nil unless both are non-negative integers.
    private func frame(_ pair: JSONElement, images: [SystemWatchdogReport.Image], outOfRange: inout Int)
        -> SampledFrame?
    {
        guard pair.kind == .array, pair.count >= 2 else { return nil }
        var iterator = pair.elements.makeIterator()
        guard let first = iterator.next(), let second = iterator.next(),
            let index = first.int64, index >= 0, index <= Int64(Int32.max), let offset = second.uint64
        else { return nil }
        var frame = SampledFrame(imageIndex: Int(index), imageOffset: offset)
        if index < Int64(images.count) {
            let image = images[Int(index)]
            frame.image = image.name ?? image.path
            frame.imageUUID = image.uuid
            if let base = image.loadAddress {
                let (sum, overflow) = base.value.addingReportingOverflow(offset)
                frame.address = overflow ? nil : HexValue(sum)
            }
        } else {
            outOfRange += 1
        }
        return frame
    }
}
