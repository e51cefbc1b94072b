import APMInspectCore

extension JSONElement {
    /// The value of the last member named `key`, keys compared decoded: the member the full reader's assignments
    /// in `forEachMember` end with when a key is repeated (the last one wins, as in `JSON.parse`).
    ///
    /// Raw key bytes are compared first; only a key written with escapes is decoded.
    func lastMember(_ key: String) -> JSONElement? {
        let wanted = Array(key.utf8)
        var found: JSONElement?
        forEachMemberRaw { raw, value in
            if raw.elementsEqual(wanted) {
                found = value
            } else if raw.contains(0x5C), JSONElement.decodedString(rawBytes: raw) == key {
                found = value
            }
            return true
        }
        return found
    }
}
