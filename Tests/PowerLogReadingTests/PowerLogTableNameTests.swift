import Testing

@testable import PowerLogReading

/// Table names are read on their bytes for speed; they must classify exactly as splitting them by Character did,
/// hostile names included.
@Suite struct PowerLogTableNameTests {
    /// The definition before the byte path.
    private static func reference(_ name: String) -> String? {
        let parts = name.split(separator: "_")
        guard parts.count >= 3 else { return nil }
        let type = String(parts[1])
        let known = ["EventForward", "EventBackward", "EventPoint", "EventInterval", "EventNone", "Aggregate"]
        return known.contains(type) ? type : nil
    }

    /// Every name of up to four pieces from a set with empty parts, near-misses, non-ASCII and an underscore that a
    /// combining mark joins to the letter before it.
    private static let names: [String] = {
        let pieces = [
            "PL", "_", "__", "EventPoint", "Aggregate", "Event", "Battery", "é", "_\u{301}", "EventNone\u{301}",
        ]
        var names = [""]
        var layer = [""]
        for _ in 0..<4 {
            layer = layer.flatMap { prefix in pieces.map { prefix + $0 } }
            names += layer
        }
        return names
    }()

    @Test func classifiesAsSplittingByCharacterDid() {
        for name in Self.names {
            #expect(PowerLogExtractor.entryType(of: name) == Self.reference(name), "\(name.debugDescription)")
        }
    }

    @Test func realNames() {
        #expect(PowerLogExtractor.entryType(of: "PLBatteryAgent_EventBackward_Battery") == "EventBackward")
        #expect(PowerLogExtractor.entryType(of: "PLAccountingOperator_Aggregate_RootNodeEnergy") == "Aggregate")
        let versioned = "PLCoalitionAgent_EventInterval_CoalitionInterval_1_2"
        #expect(PowerLogExtractor.entryType(of: versioned) == "EventInterval")
        #expect(PowerLogExtractor.entryType(of: "PLStorageOperator_EventForward") == nil)
        #expect(PowerLogExtractor.entryType(of: "sqlite_sequence") == nil)
    }
}
