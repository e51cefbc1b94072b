/// An `Encoder` that writes JSON straight into the output while the value encodes: the engine of
/// ``SortedJSONEncoder``.
///
/// Keys must come out sorted, but `encode(to:)` hands them over in declaration order. An object's members are
/// therefore kept (scalars as they are, nested values as the values themselves, which the model holds anyway) until
/// its owner's `encode(to:)` returns; then they are sorted and each is written in turn, a nested value by encoding it
/// at that moment into the output. Arrays are written element by element as they come. Nothing of a report is held
/// twice: memory is the model plus a few words per member of the objects being written plus the output buffer.
///
/// One encoder stands for one value position and is in use only while that value is written; the path is rebuilt
/// from parent links only when asked for.
final class JSONStreamEncoder: Encoder {
    enum State {
        /// Nothing written yet.
        case empty
        /// A single value was written.
        case scalar
        /// An object is collecting its members from `base` in the context's member stack.
        case keyed(base: Int)
        /// An array is open: its elements are written as they come.
        case unkeyed
        /// The value is complete; the encoder takes nothing more.
        case finished
    }

    // Unchecked exclusivity: an encoder is used by one thread, and the runtime checks cost more than the writing.
    let context: JSONStreamContext
    @exclusivity(unchecked) private(set) var parent: JSONStreamEncoder?
    /// The member name of this value in its parent object, or nil with `index` its array position.
    @exclusivity(unchecked) private(set) var keyName: String?
    @exclusivity(unchecked) private(set) var index: Int
    /// Nesting depth of this value in the pretty layout.
    @exclusivity(unchecked) private(set) var depth: Int
    @exclusivity(unchecked) var state = State.empty
    /// Elements of the array so far.
    @exclusivity(unchecked) var elementCount = 0
    /// The array's elements from the first nested container on, written when the array is complete: a nested
    /// container can be filled at any time until then.
    @exclusivity(unchecked) var pendingElements: JSONTree.ArrayBox?
    /// A container asked for in a way JSON cannot write (an array and an object from one encoder...): thrown when
    /// the value is complete, as the container methods cannot throw.
    @exclusivity(unchecked) private var misuse: (any Error)?

    init(context: JSONStreamContext, parent: JSONStreamEncoder?, keyName: String?, index: Int, depth: Int) {
        self.context = context
        self.parent = parent
        self.keyName = keyName
        self.index = index
        self.depth = depth
    }

    func reset(parent: JSONStreamEncoder?, keyName: String?, index: Int, depth: Int) {
        self.parent = parent
        self.keyName = keyName
        self.index = index
        self.depth = depth
        state = .empty
        elementCount = 0
        pendingElements = nil
        misuse = nil
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: JSONStreamEncoder? = self
        while let current = node, current.parent != nil {
            if let name = current.keyName {
                path.append(JSONTreeIndexKey(name: name))
            } else {
                path.append(JSONTreeIndexKey(index: current.index))
            }
            node = current.parent
        }
        return path.reversed()
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch state {
        case .empty: state = .keyed(base: context.members.count)
        case .keyed: break
        default: misuse = misuse ?? error("an object asked for where a value was already written")
        }
        return KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch state {
        case .empty:
            state = .unkeyed
            context.sink.append(UInt8(ascii: "["))
        case .unkeyed: break
        default: misuse = misuse ?? error("an array asked for where a value was already written")
        }
        return JSONStreamUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamSingleValueContainer(encoder: self)
    }

    func error(_ description: String) -> EncodingError {
        EncodingError.invalidValue(
            "",
            EncodingError.Context(codingPath: codingPath, debugDescription: "JSON output: \(description)")
        )
    }

    /// Records a misuse found where nothing can throw; the value's completion throws it.
    func reportMisuse(_ found: any Error) {
        guard misuse == nil else { return }
        misuse = found
    }

    // MARK: - Writing

    /// Writes a single value in this position.
    func writeScalar(_ value: JSONStreamMember.Value) throws {
        guard case .empty = state else { throw error("a second value written in one position") }
        state = .scalar
        try write(value, keyName: nil, index: -1)
    }

    /// Keeps a member of the object being collected.
    func keep(_ key: String, _ value: JSONStreamMember.Value) throws {
        guard case .keyed = state else { throw error("a member written after its object was complete") }
        context.members.append(JSONStreamMember(key: key, value: value))
    }

    /// Writes the next element of the array (or keeps it when nested containers made the rest pending).
    func element(_ value: JSONStreamMember.Value) throws {
        guard case .unkeyed = state else { throw error("an element written after its array was complete") }
        if let pending = pendingElements {
            pending.values.append(try tree(of: value))
        } else {
            beginElement()
            try write(value, keyName: nil, index: elementCount - 1)
        }
    }

    /// Writes the next element of the array from an `Encodable`, without boxing it.
    func element<Value: Encodable>(encoding value: Value) throws {
        guard case .unkeyed = state else { throw error("an element written after its array was complete") }
        if let pending = pendingElements {
            pending.values.append(
                try JSONTreeEncoder.tree(value, parent: nil, key: JSONTreeIndexKey(index: elementCount))
            )
            elementCount += 1
        } else {
            beginElement()
            try encodeChild(value, keyName: nil, index: elementCount - 1)
        }
    }

    /// Makes the rest of the array pending (a nested container was asked for) and returns where it goes.
    func pendingArray() -> JSONTree.ArrayBox {
        if let pending = pendingElements { return pending }
        let pending = JSONTree.ArrayBox()
        pendingElements = pending
        return pending
    }

    private func beginElement() {
        let sink = context.sink
        if context.pretty {
            sink.append(lineBreakIndentedBy: 2 * (depth + 1), comma: elementCount > 0)
        } else if elementCount > 0 {
            sink.append(UInt8(ascii: ","))
        }
        elementCount += 1
    }

    private func tree(of value: JSONStreamMember.Value) throws -> JSONTree {
        elementCount += 1
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(String(number))
        case .uint(let number): return .number(String(number))
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .encodable(let nested):
            return try JSONTreeEncoder.tree(nested, parent: nil, key: JSONTreeIndexKey(index: elementCount - 1))
        case .tree(let nested): return nested
        case .treeEncoder(let nested): return nested.result ?? .object(JSONTree.ObjectBox())
        }
    }

    private func write(_ value: JSONStreamMember.Value, keyName: String?, index: Int) throws {
        let sink = context.sink
        switch value {
        case .null: sink.append(literal: "null")
        case .bool(let flag): sink.append(literal: flag ? "true" : "false")
        case .int(let number): sink.append(decimal: number)
        case .uint(let number): sink.append(decimal: number)
        case .number(let text): sink.append(text)
        case .string(let text): JSONTree.writeString(text, into: sink)
        case .encodable(let nested): try encodeChild(nested, keyName: keyName, index: index)
        case .tree(let nested): JSONTree.write(nested, into: sink, pretty: context.pretty, depth: depth + 1)
        case .treeEncoder(let nested):
            JSONTree.write(
                nested.result ?? .object(JSONTree.ObjectBox()),
                into: sink,
                pretty: context.pretty,
                depth: depth + 1
            )
        }
    }

    private func encodeChild<Value: Encodable>(_ value: Value, keyName: String?, index: Int) throws {
        if let direct = value as? any JSONDirectEncodable {
            JSONObjectWriter.write(direct, context: context, depth: depth + 1)
            try context.sink.checkWritten()
            return
        }
        var child = context.encoder(parent: self, keyName: keyName, index: index, depth: depth + 1)
        try value.encode(to: child)
        try child.finish()
        context.recycle(&child)
        try context.sink.checkWritten()
    }

    /// Completes the value: writes the collected object in key order, closes the array, or writes `{}` for a value
    /// that encoded nothing (as Foundation does).
    func finish() throws {
        if let misuse { throw misuse }
        let sink = context.sink
        let pretty = context.pretty
        switch state {
        case .empty:
            sink.append(UInt8(ascii: "{"))
            if pretty { closeEmpty() }
            sink.append(UInt8(ascii: "}"))
        case .scalar, .finished:
            break
        case .keyed(let base):
            state = .finished
            try writeObject(from: base)
        case .unkeyed:
            state = .finished
            if let pending = pendingElements {
                let count = elementCount
                elementCount -= pending.values.count
                for element in pending.values {
                    beginElement()
                    JSONTree.write(element, into: sink, pretty: pretty, depth: depth + 1)
                }
                elementCount = count
            }
            if pretty {
                if elementCount == 0 {
                    closeEmpty()
                } else {
                    sink.append(lineBreakIndentedBy: 2 * depth, comma: false)
                }
            }
            sink.append(UInt8(ascii: "]"))
        }
        state = .finished
    }

    /// Foundation's pretty empty container: the opening bracket, a blank line, the closing one.
    private func closeEmpty() {
        let sink = context.sink
        sink.append(literal: "\n\n")
        sink.append(repeating: UInt8(ascii: " "), count: 2 * depth)
    }

    private func writeObject(from base: Int) throws {
        let sink = context.sink
        let pretty = context.pretty
        let end = context.members.count
        sink.append(UInt8(ascii: "{"))
        guard end > base else {
            if pretty { closeEmpty() }
            sink.append(UInt8(ascii: "}"))
            return
        }
        let order = context.order(of: base..<end)
        let written = order?.count ?? (end - base)
        for k in 0..<written {
            // Taken out rather than copied: each member is written once, then dropped with its object.
            var member = JSONStreamMember(key: "", value: .null)
            swap(&member, &context.members[base + (order?[k] ?? k)])
            if pretty {
                sink.append(lineBreakIndentedBy: 2 * (depth + 1), comma: k > 0)
            } else if k > 0 {
                sink.append(UInt8(ascii: ","))
            }
            JSONTree.writeString(member.key, into: sink)
            sink.append(literal: pretty ? " : " : ":")
            try write(member.value, keyName: member.key, index: -1)
        }
        if pretty { sink.append(lineBreakIndentedBy: 2 * depth, comma: false) }
        sink.append(UInt8(ascii: "}"))
        context.members.removeSubrange(base..<end)
    }

    // MARK: - Scalars

    /// A number as Foundation writes it (Swift's shortest form without a trailing `.0`); NaN and the infinities,
    /// which JSON has no form for, as `null` (docs/json-output.md).
    static func number<Number: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: Number
    ) -> JSONStreamMember.Value {
        guard value.isFinite else { return .null }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}
