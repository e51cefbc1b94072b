import APMInspectCore

/// The stand-ins of one `anonymize` run: the same value gets the same stand-in in every file of the run, and two
/// values never share one, so a reader can still tell that two reports came from one device or one install.
///
/// Each stand-in is derived with HMAC-SHA256 under the run's salt: the same salt gives the same stand-ins (a run
/// that must be repeatable), a random one (the default) makes two runs impossible to correlate.
package struct StandInTable {
    private let salt: [UInt8]
    private var standIns: [AnonymizedCategory: [String: String]] = [:]
    private var taken: [AnonymizedCategory: Set<String>] = [:]

    package init(salt: [UInt8]) {
        self.salt = salt
    }

    /// A salt of 32 random bytes, from the system's generator.
    package static func randomSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// How many different values of `category` were replaced so far.
    package func distinctCount(_ category: AnonymizedCategory) -> Int {
        standIns[category]?.count ?? 0
    }

    /// The stand-in of `value`, made on first sight; `make` spells it from a stream of keyed bytes.
    package mutating func standIn(
        for value: String,
        in category: AnonymizedCategory,
        make: (inout KeyedBytes) -> String
    ) -> String {
        if let known = standIns[category]?[value] { return known }
        var attempt = 0
        var made: String
        repeat {
            var bytes = KeyedBytes(salt: salt, seed: Array("\(category.rawValue)\u{0}\(attempt)\u{0}\(value)".utf8))
            made = make(&bytes)
            attempt += 1
        } while (taken[category]?.contains(made) ?? false || made == value) && attempt < 64
        standIns[category, default: [:]][value] = made
        taken[category, default: []].insert(made)
        return made
    }

    /// An endless stream of bytes derived from the salt and one value: HMAC-SHA256 of the value and a block counter.
    package struct KeyedBytes {
        private let salt: [UInt8]
        private let seed: [UInt8]
        private var block: [UInt8] = []
        private var position = 0
        private var counter: UInt32 = 0

        init(salt: [UInt8], seed: [UInt8]) {
            self.salt = salt
            self.seed = seed
        }

        package mutating func next() -> UInt8 {
            if position >= block.count {
                let count = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: counter >> $0) }  // big-endian
                block = HMACSHA256.code(key: salt, message: seed + count)
                counter &+= 1
                position = 0
            }
            let byte = block[position]
            position += 1
            return byte
        }

        /// `count` lowercase hexadecimal digits.
        package mutating func hex(_ count: Int) -> String {
            String((0..<count).map { _ in Self.hexDigits[Int(next() & 0x0F)] })
        }

        static let hexDigits = Array("0123456789abcdef")
    }
}
