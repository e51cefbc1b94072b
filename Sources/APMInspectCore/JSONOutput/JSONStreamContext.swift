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
    @exclusivity(unchecked) private var recentOrders: [(keys: [String], order: [Int])] = []
    @exclusivity(unchecked) private var nextOrder = 0

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
        var sorted = true
        var k = range.lowerBound + 1
        while k < range.upperBound {
            if JSONTree.compareUTF8(members[k - 1].key, members[k].key) >= 0 {
                sorted = false
                break
            }
            k += 1
        }
        if sorted { return nil }
        // Objects of one type repeat their keys (a report's frames, images, threads): sorted once per sequence.
        for entry in recentOrders where entry.keys.count == range.count {
            var same = true
            // `==` as the tree writer compared (canonical equivalence); literal keys compare by identity first.
            for k in 0..<range.count where entry.keys[k] != members[range.lowerBound + k].key {
                same = false
                break
            }
            if same { return entry.order }
        }
        let keys = members[range].map(\.key)
        let order = JSONTree.sortedKeyOrder(keys)
        if recentOrders.count < 64 {
            recentOrders.append((keys, order))
        } else {
            recentOrders[nextOrder] = (keys, order)
            nextOrder = (nextOrder + 1) % recentOrders.count
        }
        return order
    }
}
