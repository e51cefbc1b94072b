import APMInspectCore

/// A value written nested in an object and in arrays, so that a `JSONDirectEncodable` type is written at several
/// depths and in both list positions.
public struct NestedHolder<Value: Encodable>: Encodable {
    public var single: Value?
    public var list: [Value]
    public var nested: [[Value]]

    public init(single: Value?, list: [Value], nested: [[Value]]) {
        self.single = single
        self.list = list
        self.nested = nested
    }
}

/// Where `value` written by `SortedJSONEncoder` (which takes the `JSONDirectEncodable` paths) differs from the same
/// value written through the reference tree, compact and pretty at depths 0 to 2; empty when every layout agrees.
///
/// The families' direct-encoding tests share it: one check that a model's hand-written JSON is byte for byte its
/// synthesised `encode(to:)`.
public func directEncodingMismatches(_ value: some Encodable) -> [String] {
    var mismatches: [String] = []
    for pretty in [false, true] {
        let encoder = SortedJSONEncoder(pretty: pretty)
        for depth in 0...2 {
            let layout = "\(pretty ? "pretty" : "compact"), depth \(depth)"
            guard let direct = try? encoder.encode(value, depth: depth) else {
                mismatches.append("\(layout): does not encode")
                continue
            }
            if direct != (try? encoder.encodeThroughTree(value, depth: depth)) {
                mismatches.append("\(layout): differs from the tree writer")
            }
        }
    }
    return mismatches
}
