/// One member of an object whose owner is still encoding: kept until the object is complete, then written in key
/// order.
///
/// A nested value is kept as the value itself, not as its bytes: the model already holds it, so the members of an
/// object cost a few words each however large their values are, and each value is written straight to the output
/// when its turn comes.
struct JSONStreamMember {
    enum Value {
        case null
        case bool(Bool)
        case int(Int64)
        case uint(UInt64)
        /// A number already formatted as JSON.
        case number(String)
        case string(String)
        /// A value encoded when its turn comes.
        case encodable(any Encodable)
        /// What a nested container collected (`nestedContainer`, `nestedUnkeyedContainer`).
        case tree(JSONTree)
        /// A `superEncoder`: what it holds when the object is written.
        case treeEncoder(JSONTreeEncoder)
    }

    var key: String
    var value: Value
}
