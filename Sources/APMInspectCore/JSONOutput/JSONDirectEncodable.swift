/// A value that writes its JSON object itself, members already in key order, instead of through `encode(to:)`.
///
/// The Codable path keeps every member of an object, sorts them and writes them one by one, at a few hundred
/// instructions a member: for the types a report has by the thousand (frames, binary images, registers) that was
/// most of the time of the JSON output. ``SortedJSONEncoder`` writes an adopting value with
/// ``writeJSONMembers(into:)`` instead; the `JSONTree` reference writer still goes through `encode(to:)`, and the
/// two must agree byte for byte (tests compare them on every adopting type).
///
/// An adopting type writes the members of its object (scalars, strings, arrays, kept `JSONValue`s and other adopting
/// values) in the UTF-8 byte order of their keys, omitting exactly the members its `encode(to:)` omits.
package protocol JSONDirectEncodable: Encodable {
    func writeJSONMembers(into object: inout JSONObjectWriter)
}
