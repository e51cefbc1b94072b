extension CrashLedger {
    /// The orders ``forEachCrash(in:_:)`` lists crashes in.
    package enum CrashOrder: Sendable {
        /// ``clusters()``' order: by the content of the crashes.
        case content
        /// ``groupingOrder(_:)``: by group key, then path, the order the fleet report makes groups in.
        case grouping
    }

    /// Hands `body` every crash, each once with the reports it arrived as, the richest first; returns false when
    /// the ledger spilled and a temporary file could not be written or read back whole (some crashes missing).
    ///
    /// In memory this is ``clusters()``; once records were written out, the same crashes in the same order come
    /// from ``SpilledCrashLinking``, in memory bounded by the spill threshold.
    @discardableResult
    package func forEachCrash(in order: CrashOrder, _ body: (LinkedCrash) -> Void) -> Bool {
        guard let spill else {
            let clusters = clusters()
            for cluster in order == .grouping ? groupingOrder(clusters) : clusters {
                guard let first = cluster.members.first else { continue }
                let reports = cluster.members.map { member in
                    let (crash, file) = crash(member)
                    return LinkedCrash.Report(index: member, crash: crash, file: file, isRanged: isRanged(member))
                }
                body(LinkedCrash(key: string(records[first].key) ?? "?", reports: reports))
            }
            return true
        }
        let groupingRanks = groupingRanks()
        let contentOrder = { CrashLedgerEntry.compareContent($0, $1, groupingRanks: groupingRanks) < 0 }
        // The records still in memory go out as one more run, so that only the runs' chunks are read into memory.
        var runs = spill.runs
        if !records.isEmpty {
            var writer = SpillRunWriter(file: spill.file)
            for entry in sortedEntries() { writer.append(entry) }
            runs.append(writer.finish())
        }
        var linking = SpilledCrashLinking(
            file: spill.file,
            runs: SpillSort<CrashLedgerEntry>.reduce(runs, file: spill.file, by: contentOrder),
            groupingRanks: groupingRanks,
            budget: spillThreshold,
            directory: spillDirectory
        )
        linking.resolve(grouping: order == .grouping) { members in
            guard let first = members.first else { return }
            let reports = members.map { entry in
                let (crash, file) = crash(entry)
                return LinkedCrash.Report(index: entry.index, crash: crash, file: file, isRanged: entry.isRanged)
            }
            body(LinkedCrash(key: first.string(.key) ?? "?", reports: reports))
        }
        return !linking.failed
    }

    /// The crash an entry was made from (its link facts left out) and its file, as ``crash(_:)`` gives a record's.
    private func crash(_ entry: CrashLedgerEntry) -> (crash: FleetEvent.Crash, file: String) {
        let context = FleetEvent.Context(
            bundleId: entry.string(.bundleId),
            process: entry.string(.process),
            appVersion: entry.string(.appVersion),
            appBuild: entry.string(.appBuild),
            osVersion: entry.string(.osVersion),
            device: entry.string(.device),
            date: entry.date,
            binaryUUID: entry.string(.uuid)
        )
        var crash = FleetEvent.Crash(
            signature: entry.string(.signature) ?? "?",
            source: entry.string(.source) ?? "?",
            exception: entry.string(.exception) ?? "?",
            topFrame: entry.string(.topFrame),
            context: context
        )
        if entry.grouping >= 0, Int(entry.grouping) < groupings.count {
            crash.grouping = groupings[Int(entry.grouping)]
        }
        return (crash, entry.string(.file) ?? "?")
    }

    /// The records in memory as entries, in content order (ties, exact copies, in the order they were added).
    func sortedEntries() -> LazyMapSequence<[Int], CrashLedgerEntry> {
        let ranks = texts.ranks()
        let dateRanks = dates.ranks()
        let groupingRanks = groupingRanks()
        let order = records.indices.sorted {
            precedes(records[$0], records[$1], ranks: ranks, dateRanks: dateRanks, groupingRanks: groupingRanks)
        }
        return order.lazy.map { entry(at: $0) }
    }

    /// Record `index` with its texts resolved.
    private func entry(at index: Int) -> CrashLedgerEntry {
        let record = records[index]
        func bytes(_ id: Int32) -> [UInt8]? {
            guard id >= 0, Int(id) < texts.count else { return nil }
            return texts.withBytes(Int(id)) { $0.array }
        }
        let frames = [record.frames.0, record.frames.1, record.frames.2]
        return CrashLedgerEntry(
            index: spilledCount + index,
            grouping: record.grouping,
            pid: record.pid,
            start: record.start,
            end: record.end,
            frames: frames.map { ($0?.offset ?? 0, $0 != nil) },
            counts: (record.symbolicatedFrames, record.frameCount, record.threadCount)
        ) { slot in
            switch slot {
            case .key: bytes(record.key)
            case .signature: bytes(record.signature)
            case .source: bytes(record.source)
            case .exception: bytes(record.exception)
            case .topFrame: bytes(record.topFrame)
            case .bundleId: bytes(record.bundleId)
            case .process: bytes(record.process)
            case .appVersion: bytes(record.appVersion)
            case .appBuild: bytes(record.appBuild)
            case .osVersion: bytes(record.osVersion)
            case .device: bytes(record.device)
            case .uuid: bytes(record.uuid)
            case .file: bytes(record.file)
            case .incident: bytes(record.incident)
            case .date: dates.bytes(record.date)
            case .frame0: frames[0].flatMap { bytes($0.image) }
            case .frame1: frames[1].flatMap { bytes($0.image) }
            case .frame2: frames[2].flatMap { bytes($0.image) }
            }
        }
    }
}
