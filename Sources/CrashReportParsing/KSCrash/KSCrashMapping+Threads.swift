import APMInspectCore

extension KSCrashMapping {
    static let knownThreadKeys: Set<String> = [
        "index", "name", "dispatch_queue", "crashed", "backtrace", "backtrace_skipped", "registers",
    ]

    /// `crash.threads`: each thread's name, queue, backtrace and registers; the members the model has no field
    /// for (`stack`, `notable_addresses`, `current_thread` …) go to `extras`, one object per thread that has any.
    mutating func readThreads(_ list: JSONElement, keyPath: String, extras: inout [JSONValue]) -> [CrashReport.Thread] {
        guard expectArray(list, of: "threads", keyPath) else { return [] }
        let capacity = min(list.count, tally.limits.maxThreads)
        tally.skipThreads(list.count - capacity)
        var threads: [CrashReport.Thread] = []
        threads.reserveCapacity(capacity)
        var skippedFrames = 0
        for (position, object) in list.elements.enumerated() {
            guard position < capacity else {
                if let backtrace = object.member("backtrace") {
                    tally.skipFramesOfSkippedThread((backtrace.member("contents") ?? backtrace).count)
                }
                continue
            }
            let threadPath = keyPath + "[\(position)]"
            var thread = CrashReport.Thread(index: position)
            guard object.kind == .object else {
                warn(
                    .kscrashWrongType,
                    "expected a thread object; an empty thread stands in for it",
                    object,
                    threadPath
                )
                threads.append(thread)
                continue
            }
            thread.name = nonEmpty(text(object.member("name")))
            thread.queue = nonEmpty(text(object.member("dispatch_queue")))
            thread.crashed = object.member("crashed")?.bool ?? false
            if let backtrace = object.member("backtrace") {
                // 2.x: `{contents, skipped}`; the 2012 layout: the frame array itself, `backtrace_skipped` beside it.
                let contents = backtrace.kind == .object ? backtrace.member("contents") : backtrace
                if let contents {
                    thread.frames = readFrames(contents, keyPath: threadPath + ".backtrace.contents", held: 0)
                }
                let skipped = backtrace.member("skipped")?.int64 ?? object.member("backtrace_skipped")?.int64 ?? 0
                if skipped > 0 { skippedFrames += Int(clamping: skipped) }
            }
            if let registers = object.member("registers"), registers.kind == .object {
                thread.registers = readRegisters(registers)
                thread.registerFlavor = KSCrashNames.registerFlavor(architecture: architecture)
            }
            var kept: [JSONValue.Member] = []
            object.forEachMember { key, value in
                if !Self.knownThreadKeys.contains(key) {
                    kept.append(JSONValue.Member(key: key, value: value.materialized))
                }
            }
            if !kept.isEmpty {
                extras.append(.object([JSONValue.Member(key: "index", value: .number(String(position)))] + kept))
            }
            threads.append(thread)
        }
        if skippedFrames > 0 {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .kscrashFramesLeftOut,
                    "KSCrash left \(skippedFrames) frame(s) out of the backtraces it wrote (deep recursion)",
                    at: SourceLocation(keyPath: keyPath)
                )
            )
        }
        return threads
    }

    /// A backtrace: instruction address, image name and base, symbol name and address.
    mutating func readFrames(_ list: JSONElement, keyPath: String, held: Int) -> [CrashReport.Frame] {
        guard expectArray(list, of: "frames", keyPath) else { return [] }
        let kept = tally.admitFrames(list.count, held: held)
        var frames: [CrashReport.Frame] = []
        frames.reserveCapacity(kept)
        var unreadable = 0
        for (position, object) in list.elements.enumerated() {
            guard position < kept else { break }
            var frame = CrashReport.Frame(index: position)
            guard object.kind == .object else {
                unreadable += 1
                frames.append(frame)
                continue
            }
            let address = unsigned(object.member("instruction_addr"))
            frame.address = address.map(HexValue.init)
            frame.image = nonEmpty(text(object.member("object_name"))).map(Self.lastComponent)
            if let address, let base = unsigned(object.member("object_addr")), base <= address {
                frame.imageOffset = address - base
            }
            frame.symbol = nonEmpty(text(object.member("symbol_name")))
            if frame.symbol != nil, let address, let start = unsigned(object.member("symbol_addr")), start <= address {
                frame.symbolOffset = address - start
            }
            frames.append(frame)
        }
        if unreadable > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .kscrashWrongType,
                    "\(unreadable) frame(s) that are not objects were kept empty",
                    at: SourceLocation(keyPath: keyPath)
                )
            )
        }
        return frames
    }

    /// `registers.basic` (the general registers) then `registers.exception` (`far`, `esr`, `exception` …).
    func readRegisters(_ registers: JSONElement) -> [CrashReport.Register] {
        var found: [CrashReport.Register] = []
        for group in ["basic", "exception"] {
            guard let members = registers[group], members.kind == .object else { continue }
            members.forEachMember { name, value in
                if let number = unsigned(value) {
                    found.append(CrashReport.Register(name: name, value: HexValue(number)))
                }
            }
        }
        return found
    }
}
