import ByteAccess

/// A non-owning view of one value on a ``JSONDocument``'s tape, for loops that read thousands of small values.
///
/// ``JSONElement`` holds the document, so every element made and dropped costs a retain and a release, and every
/// read goes through the document's arrays. This view borrows the tape and the bytes instead
/// (``ByteAccess/BorrowedElements``, ``ByteAccess/BorrowedBytes``): it is valid only inside the
/// ``JSONElement/withBorrowedValue(_:)`` call that produced it and must not escape it. Every read is
/// bounds-checked against the tape and the bytes, so a view never traps, whatever the input.
@usableFromInline
package struct JSONUnsafeValue {
    @usableFromInline let nodes: BorrowedElements<JSONNode>
    @usableFromInline let bytes: BorrowedBytes
    /// Always a valid index into ``nodes`` (checked where views are made).
    @usableFromInline let index: Int

    @usableFromInline
    init(nodes: BorrowedElements<JSONNode>, bytes: BorrowedBytes, index: Int) {
        self.nodes = nodes
        self.bytes = bytes
        self.index = index
    }

    @usableFromInline var node: JSONNode { nodes[index] }

    /// The kind of the value (keys read through ``forEachMember(_:)`` are strings).
    @inlinable
    @usableFromInline
    package var kind: JSONElement.Kind {
        JSONNode.publicKind(node.kind)
    }

    /// Number of members (objects) or elements (arrays); 0 for scalars.
    @inlinable
    @usableFromInline
    package var count: Int {
        let n = node
        return n.kind == .object || n.kind == .array ? Int(n.count) : 0
    }

    /// True when this value is a string whose source text holds backslash escapes.
    @inlinable
    @usableFromInline
    package var hasEscapes: Bool {
        let n = node
        return n.kind == .string && n.flags & JSONNode.hasEscapesFlag != 0
    }

    /// The exact source bytes of a scalar (for strings, without the quotes and escapes unresolved); empty for
    /// containers.
    @inlinable
    @usableFromInline
    package var rawBytes: BorrowedBytes {
        let n = node
        guard n.kind != .object, n.kind != .array else { return .empty }
        return slice(Int(n.start), Int(n.end))
    }

    /// Where ``rawBytes`` lie in the document's ``JSONDocument/bytes``; nil for containers.
    @inlinable
    @usableFromInline
    package var byteRange: Range<Int>? {
        let n = node
        guard n.kind != .object, n.kind != .array, n.start <= n.end, Int(n.end) <= bytes.count else { return nil }
        return Int(n.start)..<Int(n.end)
    }

    @inlinable
    func slice(_ start: Int, _ end: Int) -> BorrowedBytes {
        guard start >= 0, start <= end, end <= bytes.count else { return .empty }
        return bytes.slice(start..<end)
    }

    /// The decoded string value, or nil when this is not a string (as ``JSONElement/string``).
    @inlinable
    @usableFromInline
    package var string: String? {
        let n = node
        guard n.kind == .string else { return nil }
        return JSONStringDecoding.decode(
            slice(Int(n.start), Int(n.end)),
            hasEscapes: n.flags & JSONNode.hasEscapesFlag != 0
        )
    }

    /// The exact source text of a scalar (without quotes for strings); nil for containers (as
    /// ``JSONElement/rawText``).
    @inlinable
    @usableFromInline
    package var rawText: String? {
        let n = node
        guard n.kind != .object, n.kind != .array else { return nil }
        return slice(Int(n.start), Int(n.end)).string
    }

    /// The number as an unsigned 64-bit integer when it is a non-negative integer that fits, else nil.
    @inlinable
    @usableFromInline
    package var uint64: UInt64? {
        let n = node
        guard n.kind == .number else { return nil }
        if n.flags & JSONNode.smallIntegerFlag != 0 { return UInt64(n.count) }
        return JSONNumberDecoding.uint64(slice(Int(n.start), Int(n.end)))
    }

    /// The number as a signed 64-bit integer when it is an integer that fits, else nil.
    @inlinable
    @usableFromInline
    package var int64: Int64? {
        let n = node
        guard n.kind == .number else { return nil }
        if n.flags & JSONNode.smallIntegerFlag != 0 { return Int64(n.count) }
        return JSONNumberDecoding.int64(slice(Int(n.start), Int(n.end)))
    }

    /// The boolean value, or nil when this is not `true` or `false`.
    @inlinable
    @usableFromInline
    package var bool: Bool? {
        let n = node
        guard n.kind == .bool else { return nil }
        return n.flags & JSONNode.trueFlag != 0
    }

    /// True when this string's source bytes (escapes unresolved) are exactly `key`'s UTF-8.
    @inlinable
    @usableFromInline
    package func rawEquals(_ key: StaticString) -> Bool {
        let n = node
        let length = key.utf8CodeUnitCount
        guard n.kind == .string, Int(n.end) - Int(n.start) == length else { return false }
        return slice(Int(n.start), Int(n.end)).equals(key)
    }

    /// Calls `body` with each member's key and value, in source order, until it returns false.
    ///
    /// The key is a string view (escapes unresolved in ``rawBytes``). Does nothing for values that are not objects.
    @inlinable
    @usableFromInline
    package func forEachMember(_ body: (JSONUnsafeValue, JSONUnsafeValue) throws -> Bool) rethrows {
        let n = node
        guard n.kind == .object else { return }
        var i = index + 1
        let end = min(Int(n.next), nodes.count)
        while i + 1 < end {
            let value = JSONUnsafeValue(nodes: nodes, bytes: bytes, index: i + 1)
            if try !body(JSONUnsafeValue(nodes: nodes, bytes: bytes, index: i), value) { return }
            let next = Int(nodes[i + 1].next)
            // The tape always moves forward; a node that does not would loop forever.
            guard next > i + 1 else { return }
            i = next
        }
    }

    /// Calls `body` with each element of an array, in order, until it returns false.
    ///
    /// Does nothing for values that are not arrays.
    @inlinable
    @usableFromInline
    package func forEachElement(_ body: (JSONUnsafeValue) throws -> Bool) rethrows {
        let n = node
        guard n.kind == .array else { return }
        var i = index + 1
        let end = min(Int(n.next), nodes.count)
        while i < end {
            if try !body(JSONUnsafeValue(nodes: nodes, bytes: bytes, index: i)) { return }
            let next = Int(nodes[i].next)
            guard next > i else { return }
            i = next
        }
    }

    /// The value of the first member whose raw key bytes are `key` (as ``JSONElement/member(_:)``).
    @inlinable
    @usableFromInline
    package func member(_ key: StaticString) -> JSONUnsafeValue? {
        var found: JSONUnsafeValue?
        forEachMember { name, value in
            if name.rawEquals(key) {
                found = value
                return false
            }
            return true
        }
        return found
    }
}

extension JSONElement {
    /// Calls `body` with a non-owning view of this value; the view must not be used after `body` returns.
    @inlinable
    @usableFromInline
    package func withBorrowedValue<Result>(_ body: (JSONUnsafeValue) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(document) {
            try document.bytes.withBorrowedBytes { bytes in
                try body(JSONUnsafeValue(nodes: document.nodes, bytes: bytes, index: index))
            }
        }
    }
}
