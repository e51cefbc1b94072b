/// An upper bound on how long an Itanium C++ name can print, from its mangled bytes alone.
///
/// Substitutions (`S_`, `S0_`, …) and template parameters (`T_`, `T0_`, `TL…`) print a component seen earlier in
/// full, and that component may itself hold references, so each reference can at most double what is printed:
/// a name of `n` bytes with `r` references prints at most `n · 2^r` bytes. Names under the limit by this bound go
/// straight to the runtime's demangler; others (about 3 % of the names in libLLVM, and every crafted name whose
/// references double at each step) go through the sandbox, which stops any that really grow past it.
enum CXXExpansionBound {
    /// True when `bytes` cannot print more than `limit` bytes.
    static func isWithin(_ bytes: some Collection<UInt8>, limit: Int) -> Bool {
        var references = 0
        var previous: UInt8 = 0
        var inReference = false
        for byte in bytes {
            if inReference {
                if byte == UInt8(ascii: "_") {
                    references += 1
                    inReference = false
                } else if !Self.isSequenceDigit(byte) {
                    inReference = false
                }
            }
            if byte == UInt8(ascii: "S") || byte == UInt8(ascii: "T") {
                inReference = true
            } else if previous == UInt8(ascii: "T"), byte == UInt8(ascii: "L") {
                references += 1
            }
            previous = byte
        }
        var bound = bytes.count
        for _ in 0..<references {
            bound *= 2
            if bound > limit { return false }
        }
        return bound <= limit
    }

    /// The digits of a sequence id (base 36, upper case) and of a template parameter index.
    private static func isSequenceDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
