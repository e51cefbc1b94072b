import APMInspectCore

/// One address as `apm-inspect atos --format json` writes it.
///
/// The fuzz worker encodes its answers with this type too, so what it checks is what users get.
package struct AtosResult: Encodable, Sendable {
    package var address: String
    package var fileAddress: String?
    package var locations: [Location]

    /// One frame; every key is present (null when unknown) so scripts need not test for it.
    package struct Location: Encodable, Sendable {
        package var symbol: String
        package var demangled: String?
        package var symbolOffset: UInt64
        package var file: String?
        package var line: Int?
        package var column: Int?
        package var inlined: Bool

        enum CodingKeys: String, CodingKey {
            case symbol, demangled, symbolOffset, file, line, column, inlined
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(symbol, forKey: .symbol)
            try container.encode(demangled, forKey: .demangled)
            try container.encode(symbolOffset, forKey: .symbolOffset)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(inlined, forKey: .inlined)
        }
    }

    /// The answer for `address` with both forms of every name.
    package init(_ locations: [SymbolicatedLocation], address: UInt64, fileAddress: UInt64?) {
        self.address = AtosText.hex(address)
        self.fileAddress = fileAddress.map(AtosText.hex)
        self.locations = locations.map {
            Location(
                symbol: $0.symbol,
                demangled: Demangler.demangle($0.symbol),
                symbolOffset: $0.symbolOffset,
                file: $0.file,
                line: $0.line,
                column: $0.column,
                inlined: $0.isInlined
            )
        }
    }
}
