/// One crash of a spilled ledger as linked: its records, the richest first.
struct CrashLedgerCluster: SpillItem {
    var members: [CrashLedgerEntry]

    /// The least position among the records: `CrashLedger.clusters()` lists clusters in that order.
    var root: Int { members.lazy.map(\.position).min() ?? -1 }

    var spillSize: Int { 32 + members.reduce(0) { $0 + $1.spillSize } }

    func write(to writer: inout SpillWriter) {
        writer.write(members.count)
        for member in members { member.write(to: &writer) }
    }

    static func read(from reader: inout SpillReader) -> CrashLedgerCluster? {
        guard let count = reader.int(), count >= 0 else { return nil }
        var members: [CrashLedgerEntry] = []
        for _ in 0..<count {
            guard let member = CrashLedgerEntry.read(from: &reader) else { return nil }
            members.append(member)
        }
        return CrashLedgerCluster(members: members)
    }

    /// `CrashLedger.groupingOrder(_:)`: by the group key of the richest record, then its path, then its index.
    static func precedesInGroupingOrder(_ lhs: CrashLedgerCluster, _ rhs: CrashLedgerCluster) -> Bool {
        guard let a = lhs.members.first, let b = rhs.members.first else { return rhs.members.first != nil }
        let key = CrashLedgerEntry.compare(a.text(.key), b.text(.key))
        if key != 0 { return key < 0 }
        let file = CrashLedgerEntry.compare(a.text(.file), b.text(.file))
        if file != 0 { return file < 0 }
        return a.index < b.index
    }
}
