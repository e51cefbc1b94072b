// Verbatim copies of a value read through a view, for keeping what a model does not know (as ``JSONElement``
// offers them).
extension JSONUnsafeValue {
    /// The byte range of the value's whole JSON text in the document's bytes: a string with its quotes, a container
    /// with its brackets (as ``JSONElement/sourceRange``); clamped to the bytes.
    @usableFromInline
    package var sourceRange: Range<Int> {
        let n = node
        let end = min(Int(n.end), bytes.count)
        let start = min(Int(n.start), end)
        guard n.kind == .string else { return start..<end }
        // A string's node starts after its opening quote and ends before its closing one (absent when the input
        // was cut off inside it).
        let closing = end < bytes.count && bytes[end] == UInt8(ascii: "\"") ? 1 : 0
        return max(start - 1, 0)..<(end + closing)
    }

    /// A self-contained copy of this value (as ``JSONElement/materialized``).
    @usableFromInline
    package var materialized: JSONValue {
        switch kind {
        case .null: return .null
        case .bool: return .bool(bool ?? false)
        case .number: return .number(rawText ?? "0")
        case .string: return .string(string ?? "")
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            forEachElement { element in
                elements.append(element.materialized)
                return true
            }
            return .array(elements)
        case .object:
            var members: [JSONValue.Member] = []
            members.reserveCapacity(count)
            forEachMember { key, value in
                members.append(JSONValue.Member(key: key.string ?? "", value: value.materialized))
                return true
            }
            return .object(members)
        }
    }
}
