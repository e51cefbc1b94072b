/// What the encoders of one document share: the output, the layout, the members of the objects still being
/// encoded (the sort orders of recently seen key sequences are the thread's: ``KeyOrderCache``).
final class JSONStreamContext {
    let sink: JSONByteSink
    let pretty: Bool
    /// The members of every object whose owner is still encoding, the innermost object's last.
    @exclusivity(unchecked) var members: [JSONStreamMember] = []
    /// Encoders whose value is written, for reuse: a report has hundreds of thousands of small values.
    @exclusivity(unchecked) private var spare: [JSONStreamEncoder] = []

    /// Thrown when the output passed the sink's limit.
    struct TooLarge: Error {}

    init(sink: JSONByteSink, pretty: Bool) {
        self.sink = sink
        self.pretty = pretty
        members.reserveCapacity(64)
    }

    func encoder(parent: JSONStreamEncoder?, keyName: String?, index: Int, depth: Int) -> JSONStreamEncoder {
        if let reused = spare.popLast() {
            reused.reset(parent: parent, keyName: keyName, index: index, depth: depth)
            return reused
        }
        return JSONStreamEncoder(context: self, parent: parent, keyName: keyName, index: index, depth: depth)
    }

    /// Takes `encoder` back when nothing else holds it (a value may keep its encoder, though none should).
    func recycle(_ encoder: inout JSONStreamEncoder) {
        guard isKnownUniquelyReferenced(&encoder), spare.count < 64 else { return }
        encoder.reset(parent: nil, keyName: nil, index: -1, depth: 0)
        spare.append(encoder)
    }

    /// Writes `value` at `depth` where nothing can throw (a member of a ``JSONObjectWriter`` object).
    ///
    /// Directly when it writes itself, else through its `encode(to:)`. An error is recorded in the sink
    /// (``JSONByteSink/fail(_:)``) and thrown once the direct value that holds it is complete.
    func write<Value: Encodable>(_ value: Value, depth: Int) {
        guard sink.failure == nil else { return }
        if let direct = value as? any JSONDirectEncodable {
            JSONObjectWriter.write(direct, context: self, depth: depth)
            return
        }
        let base = members.count
        var encoder = self.encoder(parent: nil, keyName: nil, index: -1, depth: depth)
        do {
            try value.encode(to: encoder)
            try encoder.finish()
        } catch {
            sink.fail(error)
            if members.count > base { members.removeSubrange(base...) }
        }
        recycle(&encoder)
    }

    /// Drops the spare encoders, which hold this context.
    func close() {
        spare.removeAll()
    }

    /// The positions (from `range.lowerBound`) of the members in `range` in key order, the last of equal keys only;
    /// nil when they are already in strictly increasing order.
    func order(of range: Range<Int>) -> [Int]? {
        let base = range.lowerBound
        return KeyOrderCache.withCurrentThread { $0.order(count: range.count) { members[base + $0].key } }
    }
}
