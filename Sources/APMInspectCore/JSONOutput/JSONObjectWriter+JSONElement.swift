import ByteAccess

/// Kept JSON written from the tape of the document it was read from, exactly as its ``JSONElement/materialized``
/// value is written, without making that value.
///
/// The vendor fields of a HAR entry (`_initiator` call stacks, by the thousand per capture) were made into values
/// only to be written and freed: a fifth of `http --format json`. Reading the tape gives the same members, in the
/// same order, with the same repairs, as making the value would: both walk the same nodes.
extension JSONObjectWriter {
    /// A member whose value is `element` as its materialized value would be written.
    package mutating func write(_ name: StaticString, _ element: JSONElement) {
        key(name)
        Self.write(element, into: sink, pretty: pretty, depth: depth + 1)
    }

    /// Writes `element` at `depth`.
    static func write(_ element: JSONElement, into sink: JSONByteSink, pretty: Bool, depth: Int) {
        let document = element.document
        withExtendedLifetime(document) {
            document.bytes.withBorrowedBytes { bytes in
                let writer = TapeWriter(nodes: document.nodes, bytes: bytes, sink: sink, pretty: pretty)
                writer.write(element.index, depth: depth)
            }
        }
    }

    /// The walk over one document's nodes and bytes, which the document outlives.
    private struct TapeWriter {
        let nodes: BorrowedElements<JSONNode>
        let bytes: BorrowedBytes
        let sink: JSONByteSink
        let pretty: Bool

        /// The text of node `index`, or empty when the node's range lies outside the bytes (never for a tape the
        /// document built; the decoders guard the same way).
        private func text(_ node: JSONNode) -> BorrowedBytes {
            let start = Int(node.start)
            let end = Int(node.end)
            guard start <= end, end <= bytes.count else { return .empty }
            return bytes.slice(start..<end)
        }

        /// The decoded string of a string node, as ``JSONElement/string`` reads it.
        private func string(_ node: JSONNode) -> String {
            JSONStringDecoding.decode(text(node), hasEscapes: node.flags & JSONNode.hasEscapesFlag != 0)
        }

        func write(_ index: Int, depth: Int) {
            guard index >= 0, index < nodes.count else {
                sink.append(literal: "null")
                return
            }
            let node = nodes[index]
            switch node.kind {
            case .null:
                sink.append(literal: "null")
            case .bool:
                sink.append(literal: node.flags & JSONNode.trueFlag != 0 ? "true" : "false")
            case .number:
                if node.flags & JSONNode.smallIntegerFlag != 0 {
                    // Plain digits below 10⁹: the form `JSONValue.encodedForm(ofNumber:)` gives them is this integer.
                    sink.append(decimal: Int64(node.count))
                } else {
                    JSONObjectWriter.write(number: text(node).string, into: sink)
                }
            case .string:
                let raw = text(node)
                if node.flags & JSONNode.hasEscapesFlag == 0, JSONObjectWriter.isASCII(raw, withoutBackslash: false) {
                    // ASCII without escapes is the very string decoding it gives.
                    JSONTree.writeString(utf8: raw, into: sink)
                } else {
                    JSONTree.writeString(string(node), into: sink)
                }
            case .array:
                let end = Swift.min(Int(node.next), nodes.count)
                var count = 0
                var child = index + 1
                while child < end {
                    count += 1
                    child = Swift.max(Int(nodes[child].next), child + 1)
                }
                child = index + 1
                JSONObjectWriter.writeArray(count: count, into: sink, pretty: pretty, depth: depth) { _ in
                    write(child, depth: depth + 1)
                    child = Swift.max(Int(nodes[child].next), child + 1)
                }
            case .object:
                writeObject(index, node, depth: depth)
            }
        }

        /// An object's members in the order ``JSONElement/forEachMember(_:)`` gives them, then ordered as a kept
        /// object's members are (``JSONTree/sortedKeyOrder(_:)``).
        private func writeObject(_ index: Int, _ node: JSONNode, depth: Int) {
            let end = Swift.min(Int(node.next), nodes.count)
            var count = 0
            var asciiKeys = true
            var i = index + 1
            while i + 1 < end {
                let key = nodes[i]
                if asciiKeys {
                    asciiKeys =
                        key.flags & JSONNode.hasEscapesFlag == 0
                        && JSONObjectWriter.isASCII(text(key), withoutBackslash: false)
                }
                count += 1
                i = Swift.max(Int(nodes[i + 1].next), i + 2)
            }
            guard asciiKeys else { return writeObjectDecodingKeys(index, end: end, count: count, depth: depth) }
            // ASCII keys without escapes are their own decoded strings, and sort and merge by their bytes alone: the
            // order is found on the tape, and no key is made into a `String`.
            withScratchElements(of: Int.self, count: count) { keyNodes in
                var i = index + 1
                for k in 0..<count {
                    keyNodes[k] = i
                    i = Swift.max(Int(nodes[i + 1].next), i + 2)
                }
                let ordered = orderByBytes(keyNodes)
                JSONObjectWriter.writeObject(count: ordered, into: sink, pretty: pretty, depth: depth) {
                    JSONTree.writeString(utf8: text(nodes[keyNodes[$0]]), into: sink)
                } value: {
                    write(keyNodes[$0] + 1, depth: depth + 1)
                }
            }
        }

        /// Sorts the key nodes by their bytes, keeping the last of equal keys (``JSONTree/sortedKeyOrder(_:)`` for
        /// ASCII keys); returns how many are left, at the front.
        private func orderByBytes(_ keyNodes: ScratchElements<Int>) -> Int {
            var keyNodes = keyNodes
            let count = keyNodes.count
            func compare(_ a: Int, _ b: Int) -> Int32 {
                text(nodes[a]).compare(text(nodes[b]))
            }
            var sorted = true
            for k in 1..<Swift.max(count, 1) where compare(keyNodes[k - 1], keyNodes[k]) >= 0 {
                sorted = false
                break
            }
            if sorted { return count }
            if count <= 16 {
                // Insertion moves a key only past greater ones, so equal keys keep their source order; for the few
                // keys of most objects it costs less than the library's sort.
                for k in 1..<count {
                    let moving = keyNodes[k]
                    var j = k
                    while j > 0, compare(keyNodes[j - 1], moving) > 0 {
                        keyNodes[j] = keyNodes[j - 1]
                        j -= 1
                    }
                    keyNodes[j] = moving
                }
            } else {
                // Node positions increase with source order, so ties broken by position keep the sort stable.
                keyNodes.sort { a, b in
                    let order = compare(a, b)
                    return order == 0 ? a < b : order < 0
                }
            }
            var kept = 0
            for k in 0..<count {
                if kept > 0, compare(keyNodes[kept - 1], keyNodes[k]) == 0 {
                    keyNodes[kept - 1] = keyNodes[k]
                } else {
                    keyNodes[kept] = keyNodes[k]
                    kept += 1
                }
            }
            return kept
        }

        /// ``writeObject(_:_:depth:)`` for keys that are not all plain ASCII: decoded, and ordered as a kept
        /// object's keys (``KeyOrderCache``).
        private func writeObjectDecodingKeys(_ index: Int, end: Int, count: Int, depth: Int) {
            var keys: [String] = []
            var values: [Int] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            var i = index + 1
            while i + 1 < end {
                keys.append(string(nodes[i]))
                values.append(i + 1)
                i = Swift.max(Int(nodes[i + 1].next), i + 2)
            }
            let order = KeyOrderCache.withCurrentThread { $0.order(count: keys.count) { keys[$0] } }
            JSONObjectWriter.writeObject(count: order?.count ?? keys.count, into: sink, pretty: pretty, depth: depth) {
                JSONTree.writeString(keys[order?[$0] ?? $0], into: sink)
            } value: {
                write(values[order?[$0] ?? $0], depth: depth + 1)
            }
        }
    }
}

extension JSONObjectWriter {
    /// Kept members as their dictionary of values (`[String: JSONValue]`) is written, the elements
    /// straight from their documents.
    package mutating func write(_ name: StaticString, _ kept: KeptJSONMembers) {
        key(name)
        let members = kept.members
        let keys = members.keys.sorted { JSONTree.compareUTF8($0, $1) < 0 }
        Self.writeObject(count: keys.count, into: sink, pretty: pretty, depth: depth + 1) {
            JSONTree.writeString(keys[$0], into: sink)
        } value: { k in
            Self.write(members[keys[k]] ?? .value(.null), into: sink, pretty: pretty, depth: depth + 2)
        }
    }

    /// An object of `count` kept members, written as the `JSONValue.object` of them in this order is: sorted by key,
    /// the last of equal keys only, each element straight from its document.
    package mutating func write(
        _ name: StaticString,
        count: Int,
        key memberKey: (Int) -> String,
        value: (Int) -> KeptJSONMembers.Member
    ) {
        key(name)
        let keys = (0..<Swift.max(count, 0)).map(memberKey)
        let order = KeyOrderCache.withCurrentThread { $0.order(count: keys.count) { keys[$0] } }
        Self.writeObject(count: order?.count ?? keys.count, into: sink, pretty: pretty, depth: depth + 1) {
            JSONTree.writeString(keys[order?[$0] ?? $0], into: sink)
        } value: { k in
            Self.write(value(order?[k] ?? k), into: sink, pretty: pretty, depth: depth + 2)
        }
    }

    /// A kept value at `depth`.
    static func write(_ member: KeptJSONMembers.Member, into sink: JSONByteSink, pretty: Bool, depth: Int) {
        switch member {
        case .value(let value): write(value, into: sink, pretty: pretty, depth: depth)
        case .element(let element): write(element, into: sink, pretty: pretty, depth: depth)
        }
    }

    /// A lazily kept value: its text, when it is still text, written from the tape of a parse of it.
    package mutating func write(_ name: StaticString, _ lazy: LazyJSONValue) {
        key(name)
        Self.write(lazy.kept, into: sink, pretty: pretty, depth: depth + 1)
    }
}
