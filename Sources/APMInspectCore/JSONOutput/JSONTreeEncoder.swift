/// An `Encoder` that builds a ``JSONTree``: what the streaming writer's nested containers and super encoders collect
/// (they are filled after they are handed out), and the writer before streaming, kept as the reference the
/// streaming one is tested against (``SortedJSONEncoder/encodeThroughTree(_:depth:)``).
///
/// A lean tree (no `Any`, no coding-path arrays: the path is rebuilt from parent links only when asked for); the
/// output is byte-identical to `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes`.
final class JSONTreeEncoder: Encoder {
    /// What was encoded; nil until a container or value is asked for.
    var result: JSONTree?
    private let parent: JSONTreeEncoder?
    private let key: (any CodingKey)?
    /// For `superEncoder` calls: the caller may fill the encoder at any time before releasing it, so its value
    /// is stored then.
    var onRelease: ((JSONTree) -> Void)?

    deinit { onRelease?(result ?? .object(JSONTree.ObjectBox())) }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: JSONTreeEncoder? = self
        while let current = node, let key = current.key {
            path.append(key)
            node = current.parent
        }
        return path.reversed()
    }

    init(parent: JSONTreeEncoder? = nil, key: (any CodingKey)? = nil) {
        self.parent = parent
        self.key = key
    }

    /// Encodes one value as a tree.
    static func tree(_ value: some Encodable, parent: JSONTreeEncoder?, key: (any CodingKey)?) throws -> JSONTree {
        let encoder = JSONTreeEncoder(parent: parent, key: key)
        try value.encode(to: encoder)
        return encoder.result ?? .object(JSONTree.ObjectBox())
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: JSONTree.ObjectBox
        if case .object(let existing) = result {
            box = existing
        } else {
            box = JSONTree.ObjectBox()
            result = .object(box)
        }
        return KeyedEncodingContainer(JSONTreeKeyedContainer<Key>(encoder: self, box: box))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: JSONTree.ArrayBox
        if case .array(let existing) = result {
            box = existing
        } else {
            box = JSONTree.ArrayBox()
            result = .array(box)
        }
        return JSONTreeUnkeyedContainer(encoder: self, box: box)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTreeSingleValueContainer(encoder: self)
    }

    // MARK: - Scalars

    /// A number as Foundation writes it (Swift's shortest form without a trailing `.0`); NaN and the infinities,
    /// which JSON has no form for, as `null` (docs/json-output.md): a report that says `"cpuTime" : 1e999` is
    /// still written, where Foundation would refuse the whole document.
    static func number<Number: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: Number,
        at path: [any CodingKey]
    ) throws -> JSONTree {
        guard value.isFinite else { return .null }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}
