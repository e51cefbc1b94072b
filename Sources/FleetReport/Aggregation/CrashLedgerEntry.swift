import APMInspectCore
import ByteAccess

/// One crash of a ledger that spilled, its texts resolved to bytes: what a run on disk holds.
///
/// A ledger's record names its texts by ids of one table; a run written out cannot, since the tables of two runs
/// give the same text different ids. So an entry carries its texts, and every order and test of the linking
/// (`CrashLedger`'s content order, link rule and richness) is stated again here on bytes: texts compare in byte
/// order where the record compares their ranks, and are equal where the record's ids are (the ledger maps
/// canonically equal non-ASCII texts to one form before either is made).
struct CrashLedgerEntry: SpillItem {
    enum Slot: Int, CaseIterable {
        case key, signature, source, exception, topFrame, bundleId, process, appVersion, appBuild, osVersion, device
        case uuid, file, incident, date, frame0, frame1, frame2
    }

    private static let header = Slot.allCases.count * 4

    /// The order the crash was added in (the index ``CrashLedger`` gives it).
    var index: Int
    /// Its place in the content order of every crash, once the runs are merged.
    var position = -1
    /// The least position of the crashes it may link with, while its cluster is resolved.
    var component = -1
    var grouping: Int32
    var pid: Int64?
    var start: Double?
    var end: Double?
    var offsets: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// Bit k: frame k is known.
    var frames: UInt8 = 0
    var symbolicatedFrames: Int32
    var frameCount: Int32
    var threadCount: Int32
    /// Bit k: text slot k is known.
    private var present: UInt32 = 0
    /// Each slot's end as four bytes, then the texts' bytes.
    private var texts: [UInt8]

    init(
        index: Int,
        grouping: Int32,
        pid: Int64?,
        start: Double?,
        end: Double?,
        frames: [(offset: UInt64, known: Bool)],
        counts: (symbolicated: Int32, frames: Int32, threads: Int32),
        text: (Slot) -> [UInt8]?
    ) {
        self.index = index
        self.grouping = grouping
        self.pid = pid
        self.start = start
        self.end = end
        symbolicatedFrames = counts.symbolicated
        frameCount = counts.frames
        threadCount = counts.threads
        let values = Slot.allCases.map(text)
        var texts = [UInt8](repeating: 0, count: Self.header)
        texts.reserveCapacity(Self.header + values.reduce(0) { $0 + ($1?.count ?? 0) })
        var present: UInt32 = 0
        for (slot, value) in values.enumerated() {
            if let value {
                present |= 1 << UInt32(slot)
                texts += value
            }
            let end = UInt32(truncatingIfNeeded: texts.count - Self.header)
            for byte in 0..<4 { texts[slot * 4 + byte] = UInt8(truncatingIfNeeded: end >> UInt32(byte * 8)) }
        }
        self.present = present
        self.texts = texts
        var offsets: [UInt64] = [0, 0, 0]
        for (index, frame) in frames.prefix(3).enumerated() where frame.known {
            self.frames |= 1 << UInt8(index)
            offsets[index] = frame.offset
        }
        self.offsets = (offsets[0], offsets[1], offsets[2])
    }

    private init(
        index: Int,
        position: Int,
        component: Int,
        grouping: Int32,
        pid: Int64?,
        start: Double?,
        end: Double?,
        offsets: (UInt64, UInt64, UInt64),
        frames: UInt8,
        counts: (Int32, Int32, Int32),
        present: UInt32,
        texts: [UInt8]
    ) {
        self.index = index
        self.position = position
        self.component = component
        self.grouping = grouping
        self.pid = pid
        self.start = start
        self.end = end
        self.offsets = offsets
        self.frames = frames
        (symbolicatedFrames, frameCount, threadCount) = counts
        self.present = present
        self.texts = texts
    }

    var spillSize: Int { 160 + texts.count }

    func write(to writer: inout SpillWriter) {
        writer.write(index)
        writer.write(position)
        writer.write(component)
        writer.write(grouping)
        writer.write(pid)
        writer.write(start)
        writer.write(end)
        writer.write(offsets.0)
        writer.write(offsets.1)
        writer.write(offsets.2)
        writer.bytes.append(frames)
        writer.write(symbolicatedFrames)
        writer.write(frameCount)
        writer.write(threadCount)
        writer.write(Int32(bitPattern: present))
        writer.write(bytes: texts)
    }

    static func read(from reader: inout SpillReader) -> CrashLedgerEntry? {
        guard let index = reader.int(), let position = reader.int(), let component = reader.int(),
            let grouping = reader.int32(), let pid = reader.optionalInt64(), let start = reader.optionalDouble(),
            let end = reader.optionalDouble(), let offset0 = reader.uint64(), let offset1 = reader.uint64(),
            let offset2 = reader.uint64(), let frames = reader.flagByte(), let symbolicated = reader.int32(),
            let frameCount = reader.int32(), let threadCount = reader.int32(), let present = reader.int32(),
            let texts = reader.byteArray(), texts.count >= header
        else { return nil }
        return CrashLedgerEntry(
            index: index,
            position: position,
            component: component,
            grouping: grouping,
            pid: pid,
            start: start,
            end: end,
            offsets: (offset0, offset1, offset2),
            frames: frames,
            counts: (symbolicated, frameCount, threadCount),
            present: UInt32(bitPattern: present),
            texts: texts
        )
    }

    // MARK: Texts

    private func end(_ slot: Int) -> Int {
        var value = 0
        for byte in 0..<4 { value |= Int(texts[slot * 4 + byte]) << (byte * 8) }
        return value
    }

    /// The bytes of a text, nil when the crash has none.
    func text(_ slot: Slot) -> ArraySlice<UInt8>? {
        let index = slot.rawValue
        guard present & (1 << UInt32(index)) != 0 else { return nil }
        let lower = Self.header + (index == 0 ? 0 : end(index - 1))
        let upper = Self.header + end(index)
        guard lower <= upper, upper <= texts.count else { return nil }
        return texts[lower..<upper]
    }

    func has(_ slot: Slot) -> Bool { present & (1 << UInt32(slot.rawValue)) != 0 }

    func string(_ slot: Slot) -> String? {
        text(slot).map { String(decoding: $0, as: UTF8.self) }
    }

    /// True when both have the text and it is the same, or neither has it.
    func same(_ slot: Slot, as other: CrashLedgerEntry) -> Bool {
        Self.compare(text(slot), other.text(slot)) == 0
    }

    /// Byte order, a missing text first (as the ledger's rank of -1).
    static func compare(_ a: ArraySlice<UInt8>?, _ b: ArraySlice<UInt8>?) -> Int {
        guard let a else { return b == nil ? 0 : -1 }
        guard let b else { return 1 }
        var i = a.startIndex
        var j = b.startIndex
        while i < a.endIndex, j < b.endIndex {
            if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        if a.count == b.count { return 0 }
        return a.count < b.count ? -1 : 1
    }

    func textEquals(_ slot: Slot, _ value: StaticString) -> Bool {
        guard let bytes = text(slot) else { return false }
        return value.withBorrowedUTF8 { literal in bytes.elementsEqual(literal) }
    }

    var date: AppleTimestamp? {
        text(.date).flatMap { bytes in bytes.withBorrowedBytes { CrashLedgerDates.date(from: $0) } }
    }

    /// A frame's image text slot.
    private static let frameSlots: [Slot] = [.frame0, .frame1, .frame2]

    private func frameKnown(_ index: Int) -> Bool { frames & (1 << UInt8(index)) != 0 }

    private func offset(_ index: Int) -> UInt64 {
        switch index {
        case 0: offsets.0
        case 1: offsets.1
        default: offsets.2
        }
    }

    /// True when frame `index` of both is known and differs (image or offset).
    private func frameDiffers(_ index: Int, from other: CrashLedgerEntry) -> Bool {
        guard frameKnown(index), other.frameKnown(index) else { return false }
        return offset(index) != other.offset(index) || !same(Self.frameSlots[index], as: other)
    }

    // MARK: Orders

    /// The texts in the order the content order compares them (paths nearly always decide).
    private static let contentSlots: [Slot] = [
        .file, .key, .signature, .source, .exception, .topFrame, .bundleId, .process, .appVersion, .appBuild,
        .osVersion, .device, .uuid, .incident,
    ]

    /// The content order of `CrashLedger.precedes`, three-way, then the order of addition: ties past the content
    /// are exact copies, which the ledger's stable sort keeps in that order.
    static func compareContent(_ a: CrashLedgerEntry, _ b: CrashLedgerEntry, groupingRanks: [Int]) -> Int {
        for slot in contentSlots {
            let result = compare(a.text(slot), b.text(slot))
            if result != 0 { return result }
        }
        let dates = compareDates(a.text(.date), b.text(.date))
        if dates != 0 { return dates }
        if a.grouping != b.grouping {
            func rank(_ id: Int32) -> Int { id >= 0 && Int(id) < groupingRanks.count ? groupingRanks[Int(id)] : -1 }
            return rank(a.grouping) < rank(b.grouping) ? -1 : 1
        }
        if a.pid != b.pid { return (a.pid ?? .min) < (b.pid ?? .min) ? -1 : 1 }
        if a.start != b.start { return (a.start ?? -.infinity) < (b.start ?? -.infinity) ? -1 : 1 }
        if a.end != b.end { return (a.end ?? -.infinity) < (b.end ?? -.infinity) ? -1 : 1 }
        for index in 0..<3 {
            let known = (a.frameKnown(index), b.frameKnown(index))
            if !known.0, !known.1 { continue }
            if !known.0 { return -1 }
            if !known.1 { return 1 }
            let image = compare(a.text(frameSlots[index]), b.text(frameSlots[index]))
            if image != 0 { return image }
            if a.offset(index) != b.offset(index) { return a.offset(index) < b.offset(index) ? -1 : 1 }
        }
        if a.symbolicatedFrames != b.symbolicatedFrames { return a.symbolicatedFrames < b.symbolicatedFrames ? -1 : 1 }
        if a.frameCount != b.frameCount { return a.frameCount < b.frameCount ? -1 : 1 }
        if a.threadCount != b.threadCount { return a.threadCount < b.threadCount ? -1 : 1 }
        if a.index != b.index { return a.index < b.index ? -1 : 1 }
        return 0
    }

    /// Dates by instant, then by text (`CrashLedgerDates.ranks()`), a missing date first.
    private static func compareDates(_ a: ArraySlice<UInt8>?, _ b: ArraySlice<UInt8>?) -> Int {
        guard let a else { return b == nil ? 0 : -1 }
        guard let b else { return 1 }
        if a.elementsEqual(b) { return 0 }
        let left = a.withBorrowedBytes { CrashLedgerDates.seconds(from: $0) }
        let right = b.withBorrowedBytes { CrashLedgerDates.seconds(from: $0) }
        if left != right { return left < right ? -1 : 1 }
        let leftDate = a.withBorrowedBytes { CrashLedgerDates.date(from: $0) }
        let rightDate = b.withBorrowedBytes { CrashLedgerDates.date(from: $0) }
        if let leftDate, let rightDate, leftDate.iso8601 != rightDate.iso8601 {
            return leftDate.iso8601.utf8.lexicographicallyPrecedes(rightDate.iso8601.utf8) ? -1 : 1
        }
        return compare(a, b)
    }

    // MARK: Linking

    /// `CrashLedger.gap`.
    static func gap(_ a: CrashLedgerEntry, _ b: CrashLedgerEntry) -> Double {
        guard let aStart = a.start, let aEnd = a.end, let bStart = b.start, let bEnd = b.end else { return .infinity }
        if aEnd < bStart { return bStart - aEnd }
        if bEnd < aStart { return aStart - bEnd }
        return 0
    }

    /// `CrashLedger.links`: the link rule (see `CrashLedger`).
    static func links(_ a: CrashLedgerEntry, _ b: CrashLedgerEntry) -> Bool {
        let sameIncident = a.has(.incident) && a.same(.incident, as: b)
        if !sameIncident {
            guard !a.same(.source, as: b) else { return false }
        }
        if a.has(.uuid), b.has(.uuid) {
            guard a.same(.uuid, as: b) else { return false }
        } else if !sameIncident {
            guard a.has(.process), a.same(.process, as: b) else { return false }
        }
        if a.has(.bundleId), b.has(.bundleId), !a.same(.bundleId, as: b) { return false }
        if a.has(.device), b.has(.device), !a.same(.device, as: b) { return false }
        if let aPid = a.pid, let bPid = b.pid, aPid != bPid { return false }
        for index in 0..<3 where a.frameDiffers(index, from: b) { return false }
        if sameIncident {
            return a.same(.exception, as: b) || a.textEquals(.exception, "?") || b.textEquals(.exception, "?")
        }
        guard gap(a, b) <= CrashLedger.window else { return false }
        let aRanged = (a.end ?? 0) > (a.start ?? 0)
        let bRanged = (b.end ?? 0) > (b.start ?? 0)
        if aRanged || bRanged, a.pid == nil || b.pid == nil { return false }
        return true
    }

    /// `CrashLedger.richer`: more symbolicated frames, frames, threads, then the source's rank, then the position.
    static func richer(_ a: CrashLedgerEntry, _ b: CrashLedgerEntry) -> Bool {
        if a.symbolicatedFrames != b.symbolicatedFrames { return a.symbolicatedFrames > b.symbolicatedFrames }
        if a.frameCount != b.frameCount { return a.frameCount > b.frameCount }
        if a.threadCount != b.threadCount { return a.threadCount > b.threadCount }
        let aSource = a.sourceRank
        let bSource = b.sourceRank
        if aSource != bSource { return aSource < bSource }
        return a.position < b.position
    }

    private var sourceRank: Int {
        if textEquals(.source, "crashReport") { return 0 }
        if textEquals(.source, "kscrash") { return 1 }
        if textEquals(.source, "metrickit") { return 2 }
        return 3
    }

    /// True when its time is a range (a MetricKit payload's), not an instant.
    var isRanged: Bool {
        guard let start, let end else { return false }
        return end > start
    }
}
