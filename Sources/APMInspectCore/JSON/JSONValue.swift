/// A self-contained JSON value, used to keep data a model does not know, verbatim.
///
/// Numbers keep their source text so 64-bit integers and 17-digit doubles survive a round trip; objects keep
/// their member order.
public indirect enum JSONValue: Sendable, Equatable, Hashable {
    /// An object member.
    public struct Member: Sendable, Equatable, Hashable {
        /// The member's name, as written (duplicates are kept in order).
        public var key: String
        /// The member's value.
        public var value: JSONValue

        @usableFromInline
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    case null
    case bool(Bool)
    /// A number, as its JSON text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// The value of the first member named `key`, if this is an object that has one.
    @usableFromInline
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }
}
