/// HMAC-SHA256 (RFC 2104) over ``SHA256Digest``, so `anonymize` can derive stand-ins from a secret salt without a
/// crypto dependency (swift-crypto is kept to the network symbol sources).
///
/// A keyed hash and not a plain one: without the salt, a stand-in cannot be turned back into the value it hides by
/// hashing guesses (a CrashReporter key or an IPv4 address has few enough candidates to try them all).
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func code(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256Digest.hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256Digest()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        let innerCode = inner.finish()
        var outer = SHA256Digest()
        outer.update(block.map { $0 ^ 0x5C })
        outer.update(innerCode)
        return outer.finish()
    }
}
