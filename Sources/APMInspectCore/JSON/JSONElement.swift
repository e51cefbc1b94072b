import ByteAccess

/// A read-only view of one value in a ``JSONDocument``.
///
/// Cheap to copy (a reference and an index). Accessors decode on demand and return nil on a type mismatch, so
/// a model builder can read what it expects and keep the rest verbatim with ``materialized``.
@usableFromInline
package struct JSONElement: Sendable {
    /// The kinds of JSON value.
    @usableFromInline
    package enum Kind: Sendable, Equatable {
        case object
        case array
        case string
        case number
        case bool
        case null
    }

    @usableFromInline
    package let document: JSONDocument
    @usableFromInline let index: Int

    @usableFromInline
    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    @usableFromInline var node: JSONNode { document.nodes[index] }

    /// The JSON type of this value.
    @inlinable
    @usableFromInline
    package var kind: Kind {
        JSONNode.publicKind(node.kind)
    }

    /// Byte offset of the value's first byte in the source (for strings, the first byte inside the quotes).
    @usableFromInline
    package var byteOffset: Int { Int(node.start) }

    /// The byte range of the value's whole JSON text in the document's ``JSONDocument/bytes``: a string with its
    /// quotes, a container with its brackets.
    @usableFromInline
    package var sourceRange: Range<Int> {
        let n = node
        let start = Int(n.start)
        let end = Int(n.end)
        // A string's node starts after its opening quote and ends before its closing one (absent when the input
        // was cut off inside it).
        guard n.kind == .string else { return start..<end }
        let closing = end < document.bytes.count && document.bytes[end] == UInt8(ascii: "\"") ? 1 : 0
        return max(start - 1, 0)..<(end + closing)
    }

    /// True when this container was still open when the input ended, or this string was cut at a line end.
    @usableFromInline
    package var isTruncated: Bool { node.flags & JSONNode.truncatedFlag != 0 }

    /// True when this object was made up by the lenient parser around members that had no enclosing braces.
    @usableFromInline
    package var isSynthetic: Bool { node.flags & JSONNode.syntheticFlag != 0 }

    /// True for a container recorded by its byte range only (see ``JSONParseOptions/opaqueDepth``).
    @usableFromInline
    package var isOpaque: Bool { node.flags & JSONNode.opaqueFlag != 0 }

    /// For an opaque object: false when the options' key probe certainly does not appear directly inside it; true
    /// otherwise (including for containers that are not opaque, whose members can simply be read).
    @usableFromInline
    package var mayContainProbedKey: Bool {
        let n = node
        return n.flags & JSONNode.opaqueFlag == 0 || n.flags & JSONNode.probeHitFlag != 0
    }

    /// The exact source bytes of this value (for strings, without the quotes).
    @usableFromInline
    package var rawBytes: ArraySlice<UInt8> {
        let n = node
        return document.bytes[Int(n.start)..<Int(n.end)]
    }

    /// An opaque container parsed in full (as a new document over its bytes); any other value as it is.
    ///
    /// - Throws: ``InputError`` when the container's bytes are not JSON (opaque containers are not validated
    ///   while the document is parsed).
    @usableFromInline
    package func expanded() throws(InputError) -> JSONElement {
        guard isOpaque else { return self }
        let n = node
        var options = document.options
        options.opaqueDepth = nil
        let start = Int(n.start)
        let bytes = Array(document.bytes[start..<Int(n.end)])
        let origin = TextOrigin(byteOffset: document.origin.byteOffset + start, line: document.origin.line)
        let sub = try JSONDocument(bytes: bytes, options: options, origin: origin)
        guard !sub.diagnostics.isEmpty else { return sub.root }
        // Only findings need the line the container starts on, and finding it means scanning from the start.
        // The container may start mid-line; its first line's columns are then relative to the container.
        let line = document.location(ofByte: start).line ?? origin.line
        let located = try JSONDocument(
            bytes: bytes,
            options: options,
            origin: TextOrigin(byteOffset: origin.byteOffset, line: line)
        )
        return located.root
    }

    /// Number of members (objects) or elements (arrays); 0 for scalars.
    @inlinable
    @usableFromInline
    package var count: Int {
        let n = node
        return n.kind == .object || n.kind == .array ? Int(n.count) : 0
    }

    // MARK: - Scalars

    /// The decoded string value, or nil when this is not a string.
    @inlinable
    @usableFromInline
    package var string: String? {
        let n = node
        guard n.kind == .string else { return nil }
        return JSONStringDecoding.decode(
            document.bytes,
            start: Int(n.start),
            end: Int(n.end),
            hasEscapes: n.flags & 1 != 0
        )
    }

    /// The number as an unsigned 64-bit integer when it is a non-negative integer that fits, else nil.
    @inlinable
    @usableFromInline
    package var uint64: UInt64? {
        let n = node
        guard n.kind == .number else { return nil }
        if n.flags & JSONNode.smallIntegerFlag != 0 { return UInt64(n.count) }
        return JSONNumberDecoding.uint64(document.bytes, start: Int(n.start), end: Int(n.end))
    }

    /// The number as a signed 64-bit integer when it is an integer that fits, else nil.
    @inlinable
    @usableFromInline
    package var int64: Int64? {
        let n = node
        guard n.kind == .number else { return nil }
        if n.flags & JSONNode.smallIntegerFlag != 0 { return Int64(n.count) }
        return JSONNumberDecoding.int64(document.bytes, start: Int(n.start), end: Int(n.end))
    }

    /// The number as a double, or nil when this is not a number.
    @usableFromInline
    package var double: Double? {
        let n = node
        guard n.kind == .number else { return nil }
        let start = Int(n.start)
        let end = Int(n.end)
        return document.bytes.withBorrowedBytes { bytes in
            guard start >= 0, start <= end, end <= bytes.count else { return nil }
            return JSONNumberDecoding.double(bytes.slice(start..<end))
        }
    }

    /// The boolean value, or nil when this is not `true` or `false`.
    @inlinable
    @usableFromInline
    package var bool: Bool? {
        let n = node
        guard n.kind == .bool else { return nil }
        return n.flags & JSONNode.trueFlag != 0
    }

    /// The exact source text of a scalar (without quotes for strings); nil for containers.
    @usableFromInline
    package var rawText: String? {
        let n = node
        guard n.kind != .object, n.kind != .array else { return nil }
        return String(decoding: document.bytes[Int(n.start)..<Int(n.end)], as: UTF8.self)
    }

    // MARK: - Containers

    /// The value of the first member named `key` of an object.
    @usableFromInline
    package subscript(key: String) -> JSONElement? {
        guard node.kind == .object else { return nil }
        var found: JSONElement?
        var target = key
        target.withBorrowedUTF8 { keyBytes in
            forEachMemberRaw { rawKey, value in
                if rawKey.equals(keyBytes) {
                    found = value
                    return false
                }
                return true
            }
        }
        return found
    }

    /// The value of the first member named `key`, compared as raw bytes (fast path for known ASCII keys).
    @inlinable
    @usableFromInline
    package func member(_ key: StaticString) -> JSONElement? {
        let nodes = document.nodes
        let n = nodes[index]
        guard n.kind == .object else { return nil }
        let keyLength = key.utf8CodeUnitCount
        return key.withBorrowedUTF8 { wanted -> JSONElement? in
            document.bytes.withBorrowedBytes { bytes -> JSONElement? in
                var i = index + 1
                let end = min(Int(n.next), nodes.count)
                while i + 1 < end {
                    let keyNode = nodes[i]
                    if Int(keyNode.end) - Int(keyNode.start) == keyLength, bytes.matches(wanted, at: Int(keyNode.start))
                    {
                        return JSONElement(document: document, index: i + 1)
                    }
                    i = Int(nodes[i + 1].next)
                }
                return nil
            }
        }
    }

    /// Calls `body` with each member's key and value, in source order.
    @usableFromInline
    package func forEachMember(_ body: (String, JSONElement) throws -> Void) rethrows {
        let nodes = document.nodes
        let n = nodes[index]
        guard n.kind == .object else { return }
        var i = index + 1
        let end = min(Int(n.next), nodes.count)
        while i < end {
            let keyNode = nodes[i]
            let key = JSONStringDecoding.decode(
                document.bytes,
                start: Int(keyNode.start),
                end: Int(keyNode.end),
                hasEscapes: keyNode.flags & JSONNode.hasEscapesFlag != 0
            )
            let valueIndex = i + 1
            guard valueIndex < end else { return }
            try body(key, JSONElement(document: document, index: valueIndex))
            i = Int(nodes[valueIndex].next)
        }
    }

    /// Visits members with their raw key bytes (escapes not resolved, as ``member(_:)`` compares them); stops when
    /// `body` returns false.
    ///
    /// One pass reads several known keys of an object, where a ``member(_:)`` call per key rescans the members.
    @inlinable
    @usableFromInline
    package func forEachMemberRaw(_ body: (BorrowedBytes, JSONElement) -> Bool) {
        let nodes = document.nodes
        let n = nodes[index]
        guard n.kind == .object else { return }
        document.bytes.withBorrowedBytes { bytes in
            var i = index + 1
            let end = min(Int(n.next), nodes.count)
            while i < end {
                let keyNode = nodes[i]
                let valueIndex = i + 1
                guard valueIndex < end else { return }
                let raw = bytes.slice(Int(keyNode.start)..<Int(keyNode.end))
                if !body(raw, JSONElement(document: document, index: valueIndex)) { return }
                i = Int(nodes[valueIndex].next)
            }
        }
    }

    /// The decoded text of a string's raw bytes as ``forEachMemberRaw(_:)`` gives keys (escapes resolved), the same
    /// as ``forEachMember(_:)``'s key.
    @usableFromInline
    package static func decodedString(rawBytes: BorrowedBytes) -> String {
        JSONStringDecoding.decode(rawBytes, hasEscapes: rawBytes.contains(UInt8(ascii: "\\")))
    }

    /// The elements of an array (empty for anything else).
    @inlinable
    @usableFromInline
    package var elements: JSONElementSequence {
        let n = node
        guard n.kind == .array else {
            return JSONElementSequence(document: document, first: index, end: index)
        }
        return JSONElementSequence(document: document, first: index + 1, end: min(Int(n.next), document.nodes.count))
    }

    /// The array's strings, skipping elements of other kinds.
    @usableFromInline
    package var strings: [String] {
        elements.compactMap(\.string)
    }

    // MARK: - Verbatim copies

    /// A self-contained copy of this value, for keeping data the model does not know.
    @usableFromInline
    package var materialized: JSONValue {
        switch node.kind {
        case .null: return .null
        case .bool: return .bool(bool ?? false)
        case .number: return .number(rawText ?? "0")
        case .string: return .string(string ?? "")
        case .array: return .array(elements.map(\.materialized))
        case .object:
            var members: [JSONValue.Member] = []
            members.reserveCapacity(count)
            forEachMember { key, value in members.append(JSONValue.Member(key: key, value: value.materialized)) }
            return .object(members)
        }
    }
}

/// The elements of a JSON array, in order.
@usableFromInline
package struct JSONElementSequence: Sequence, Sendable {
    @usableFromInline let document: JSONDocument
    @usableFromInline let first: Int
    @usableFromInline let end: Int

    @usableFromInline
    init(document: JSONDocument, first: Int, end: Int) {
        self.document = document
        self.first = first
        self.end = end
    }

    /// Walks the elements of an array in order.
    @usableFromInline
    package struct Iterator: IteratorProtocol {
        @usableFromInline let document: JSONDocument
        @usableFromInline var current: Int
        @usableFromInline let end: Int

        @usableFromInline
        init(document: JSONDocument, current: Int, end: Int) {
            self.document = document
            self.current = current
            self.end = end
        }

        @inlinable
        @usableFromInline
        package mutating func next() -> JSONElement? {
            guard current < end else { return nil }
            let element = JSONElement(document: document, index: current)
            current = Int(document.nodes[current].next)
            return element
        }
    }

    @inlinable
    @usableFromInline
    package func makeIterator() -> Iterator { Iterator(document: document, current: first, end: end) }

    @usableFromInline
    package var underestimatedCount: Int { first < end ? 1 : 0 }
}
