import APMInspectCore

/// atos's text answers, shared by `apm-inspect atos` (its tests check the fast writer against these lines) and
/// the fuzz worker.
package enum AtosText {
    /// atos's lines for one address: `name (in Binary) (file:line)`, or `name (in Binary) + offset` without a
    /// line; the address itself when nothing covers it.
    package static func lines(
        _ locations: [SymbolicatedLocation],
        address: UInt64,
        binary: String,
        inlines: Bool
    ) -> String {
        guard let concrete = locations.last, let innermost = locations.first else { return hex(address) + "\n" }
        let shownBinary = TerminalText.escaped(binary)
        func line(name: String, offset: UInt64, file: String?, line: Int?) -> String {
            let shownName = TerminalText.escaped(Demangler.demangle(name) ?? name)
            if let file, let line {
                let base =
                    file.utf8.lastIndex(of: UInt8(ascii: "/")).map {
                        String(decoding: file.utf8[file.utf8.index(after: $0)...], as: UTF8.self)
                    } ?? file
                return "\(shownName) (in \(shownBinary)) (\(TerminalText.escaped(base)):\(line))\n"
            }
            return "\(shownName) (in \(shownBinary)) + \(offset)\n"
        }
        if inlines {
            return locations.map { line(name: $0.symbol, offset: $0.symbolOffset, file: $0.file, line: $0.line) }
                .joined()
        }
        return line(name: concrete.symbol, offset: concrete.symbolOffset, file: innermost.file, line: innermost.line)
    }

    /// `0x1000040a7`, as atos prints addresses.
    static func hex(_ value: UInt64) -> String {
        "0x" + String(value, radix: 16)
    }
}
