/// How a model keeps a dictionary of verbatim JSON (a HAR entry's vendor fields): each value made, or still the
/// element of the parsed document it was read from, made into a value only when it is read.
///
/// A capture written out one transaction at a time made every vendor value (`_initiator` call stacks, hundreds of
/// nodes each) into a ``JSONValue`` only to write and free it. An element is written straight from its document's
/// tape (`JSONObjectWriter`) to the same bytes. It holds its whole document alive, so a reader keeps elements only
/// where the model is written and dropped one at a time. Encoding, decoding and equality go through the values.
@propertyWrapper
public struct KeptJSONMembers: Sendable, Equatable, Codable {
    /// One kept value.
    @usableFromInline
    package enum Member: Sendable {
        case value(JSONValue)
        case element(JSONElement)

        /// The value, made from the element when it is one.
        @usableFromInline
        package var value: JSONValue {
            switch self {
            case .value(let value): value
            case .element(let element): element.materialized
            }
        }
    }

    @usableFromInline
    package var members: [String: Member]

    /// No members.
    public init() {
        members = [:]
    }

    /// Members already decoded.
    public init(wrappedValue: [String: JSONValue]) {
        members = wrappedValue.mapValues { .value($0) }
    }

    /// The members, decoded on first read.
    public var wrappedValue: [String: JSONValue] {
        get { members.mapValues(\.value) }
        set { members = newValue.mapValues { .value($0) } }
    }

    /// How many members are kept, without decoding them.
    public var count: Int { members.count }

    @usableFromInline
    package subscript(key: String) -> Member? {
        get { members[key] }
        set { members[key] = newValue }
    }

    /// The same members with every element made into its value, so that no parsed document is held.
    @usableFromInline
    package var madeValues: KeptJSONMembers {
        KeptJSONMembers(wrappedValue: wrappedValue)
    }

    /// Adds `other`'s members; where both have a key, `other`'s member wins when `otherWins`, else this one's.
    @usableFromInline
    package mutating func merge(_ other: KeptJSONMembers, otherWins: Bool) {
        members.merge(other.members) { current, new in otherWins ? new : current }
    }

    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try [String: JSONValue](from: decoder))
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }

    /// Equal when they say the same thing: equality by content, never by storage.
    public static func == (lhs: KeptJSONMembers, rhs: KeptJSONMembers) -> Bool {
        lhs.wrappedValue == rhs.wrappedValue
    }
}
