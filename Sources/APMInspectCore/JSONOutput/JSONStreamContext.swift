/// What the encoders of one document share: the output, the layout, the members of the objects still being
/// encoded and the sort orders of recently seen key sequences.
final class JSONStreamContext {
    let sink: JSONByteSink
    let pretty: Bool
    /// Encoding stops (``JSONStreamContext/TooLarge``) once the output passes this many bytes.
    let limit: Int
    /// The members of every object whose owner is still encoding, the innermost object's last.
    @exclusivity(unchecked) var members: [JSONStreamMember] = []
    /// Encoders whose value is written, for reuse: a report has hundreds of thousands of small values.
    @exclusivity(unchecked) private var spare: [JSONStreamEncoder] = []
    @exclusivity(unchecked) private var keyOrders = KeyOrderCache()

    /// Thrown when the output passed `limit`.
    struct TooLarge: Error {}

    init(sink: JSONByteSink, pretty: Bool, limit: Int = Int.max) {
        self.sink = sink
        self.pretty = pretty
        self.limit = limit
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

    /// Drops the spare encoders, which hold this context.
    func close() {
        spare.removeAll()
    }

    /// The positions (from `range.lowerBound`) of the members in `range` in key order, the last of equal keys only;
    /// nil when they are already in strictly increasing order.
    func order(of range: Range<Int>) -> [Int]? {
        let base = range.lowerBound
        return keyOrders.order(count: range.count) { members[base + $0].key }
    }
}
