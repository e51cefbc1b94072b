/// Two crashes that link, as a spilled ledger's linking finds them: positions in the content order, and how far
/// apart their times are (-1 for one incident id).
struct CrashLedgerEdge: SpillItem {
    var gap: Double
    var a: Int
    var b: Int
    /// The least position of the component both are in, once known.
    var component = -1

    init(gap: Double, a: Int, b: Int) {
        self.gap = gap
        self.a = a
        self.b = b
    }

    var spillSize: Int { 32 }

    func write(to writer: inout SpillWriter) {
        writer.write(gap)
        writer.write(a)
        writer.write(b)
        writer.write(component)
    }

    static func read(from reader: inout SpillReader) -> CrashLedgerEdge? {
        guard let gap = reader.double(), let a = reader.int(), let b = reader.int(), let component = reader.int()
        else { return nil }
        var edge = CrashLedgerEdge(gap: gap, a: a, b: b)
        edge.component = component
        return edge
    }
}
