import AppleDeviceCatalog
import Foundation
import Testing

@Suite("DeviceCatalog lookups")
struct DeviceCatalogLookupTests {
    @Test("iPhone8,2 is the iPhone 6s Plus with 2 GB")
    func iPhone6sPlus() throws {
        let model = try #require(DeviceCatalog.model(for: "iPhone8,2"))
        #expect(model.identifier == "iPhone8,2")
        #expect(model.name == "iPhone 6s Plus")
        #expect(model.family == .iPhone)
        #expect(model.ramOptionsMB == [2048])
        #expect(model.ramMB == 2048)
    }

    @Test("iPhone7,2 (iPhone 6, A8) has 1 GB")
    func iPhone6() throws {
        let model = try #require(DeviceCatalog.model(for: "iPhone7,2"))
        #expect(model.name == "iPhone 6")
        #expect(model.ramMB == 1024)
    }

    /// jetsam.md §7: on the 2018 iPad Pro only the 1 TB identifiers (8,2/8,4/8,6/8,8) have 6 GB.
    @Test(
        "iPad8,x RAM follows the 1 TB split",
        arguments: [
            ("iPad8,1", 4096), ("iPad8,2", 6144), ("iPad8,3", 4096), ("iPad8,4", 6144),
            ("iPad8,5", 4096), ("iPad8,6", 6144), ("iPad8,7", 4096), ("iPad8,8", 6144),
        ]
    )
    func iPadPro2018(identifier: String, ramMB: Int) throws {
        let model = try #require(DeviceCatalog.model(for: identifier))
        #expect(model.family == .iPad)
        #expect(model.ramMB == ramMB)
        #expect(DeviceCatalog.resolveRAM(for: identifier, estimatedMB: nil)?.ramMB == ramMB)
    }

    @Test("Unknown identifiers give nil", arguments: ["iPhone99,1", "", "   ", "iphone8,2", "iPhone8,2x", "Watch99,1"])
    func unknown(identifier: String) {
        #expect(DeviceCatalog.model(for: identifier) == nil)
        #expect(DeviceCatalog.resolveRAM(for: identifier, estimatedMB: 2000) == nil)
    }

    @Test(
        "Whitespace around an identifier is ignored",
        arguments: [" iPhone8,2", "iPhone8,2 ", "\tiPhone8,2\n", "\r\n iPhone8,2 "]
    )
    func trimmed(identifier: String) throws {
        let model = try #require(DeviceCatalog.model(for: identifier))
        #expect(model.identifier == "iPhone8,2")
    }

    @Test("Simulators are known, with no RAM", arguments: ["i386", "x86_64", "arm64"])
    func simulators(identifier: String) throws {
        let model = try #require(DeviceCatalog.model(for: identifier))
        #expect(model.family == .simulator)
        #expect(model.name == "Simulator")
        #expect(model.ramOptionsMB.isEmpty)
        #expect(model.ramMB == nil)
        #expect(DeviceCatalog.resolveRAM(for: identifier, estimatedMB: 8000) == nil)
    }

    @Test("Apple Watch rows")
    func watches() throws {
        let series3 = try #require(DeviceCatalog.model(for: "Watch3,4"))
        #expect(series3.family == .watch)
        #expect(series3.name == "Apple Watch Series 3")
        #expect(series3.ramMB == 768)

        let ultra = try #require(DeviceCatalog.model(for: "Watch6,18"))
        #expect(ultra.name == "Apple Watch Ultra")
        #expect(ultra.ramMB == 1024)

        // Recent watches are listed by name, with RAM left unknown rather than guessed.
        let series9 = try #require(DeviceCatalog.model(for: "Watch7,1"))
        #expect(series9.name == "Apple Watch Series 9")
        #expect(series9.ramOptionsMB.isEmpty)
        #expect(DeviceCatalog.resolveRAM(for: "Watch7,1", estimatedMB: 1900) == nil)
    }
}

@Suite("DeviceCatalog.resolveRAM")
struct ResolveRAMTests {
    @Test("One option: returned as is, estimate ignored", arguments: [nil, 900.0, 50_000.0])
    func singleOption(estimate: Double?) {
        let resolution = DeviceCatalog.resolveRAM(for: "iPhone8,2", estimatedMB: estimate)
        #expect(resolution == RAMResolution(ramMB: 2048, ambiguous: false, resolvedByEstimate: false))
    }

    @Test(
        "M2 and M4 iPad Pro: two options, picked by the estimate",
        arguments: ["iPad14,3", "iPad14,6", "iPad16,3", "iPad16,6"]
    )
    func storageDependentRAM(identifier: String) throws {
        let model = try #require(DeviceCatalog.model(for: identifier))
        #expect(model.ramOptionsMB == [8192, 16_384])
        #expect(model.ramMB == nil)

        let small = DeviceCatalog.resolveRAM(for: identifier, estimatedMB: 7400)
        #expect(small == RAMResolution(ramMB: 8192, ambiguous: true, resolvedByEstimate: true))

        let large = DeviceCatalog.resolveRAM(for: identifier, estimatedMB: 15_000)
        #expect(large == RAMResolution(ramMB: 16_384, ambiguous: true, resolvedByEstimate: true))

        #expect(DeviceCatalog.resolveRAM(for: identifier, estimatedMB: nil) == nil)
    }

    @Test("Unusable estimates give nil when the RAM is ambiguous", arguments: [0, -1, Double.nan, Double.infinity])
    func unusableEstimate(estimate: Double) {
        #expect(DeviceCatalog.resolveRAM(for: "iPad16,3", estimatedMB: estimate) == nil)
    }

    /// jetsam.md §2.3: the estimate is 88–104 % of nominal; both ends must resolve to the right option.
    @Test(
        "The whole 88–104 % band resolves correctly",
        arguments: ["iPad14,3", "iPad16,5", "iPad17,1", "iPad17,4"]
    )
    func estimateBand(identifier: String) throws {
        let options = try #require(DeviceCatalog.model(for: identifier)).ramOptionsMB
        #expect(options.count == 2)
        for option in options {
            for share in [0.87, 0.88, 0.96, 1.04, 1.05] {
                let resolution = DeviceCatalog.resolveRAM(for: identifier, estimatedMB: Double(option) * share)
                #expect(resolution?.ramMB == option, "\(identifier) option \(option) at \(share)")
            }
        }
    }

    @Test("M5 iPad Pro resolves 12 GB against 16 GB")
    func m5IPadPro() {
        #expect(DeviceCatalog.resolveRAM(for: "iPad17,1", estimatedMB: 11_500)?.ramMB == 12_288)
        #expect(DeviceCatalog.resolveRAM(for: "iPad17,1", estimatedMB: 15_100)?.ramMB == 16_384)
    }

    @Test("Identifier whitespace is ignored here too")
    func trimmedIdentifier() {
        #expect(DeviceCatalog.resolveRAM(for: " iPad16,3\n", estimatedMB: 7400)?.ramMB == 8192)
    }
}

@Suite("DeviceCatalog data integrity")
struct DeviceCatalogIntegrityTests {
    @Test("No duplicate identifiers")
    func noDuplicates() {
        var seen: Set<String> = []
        var duplicates: [String] = []
        for model in DeviceCatalog.all where !seen.insert(model.identifier).inserted {
            duplicates.append(model.identifier)
        }
        #expect(duplicates.isEmpty)
    }

    @Test("Every row has a name, a family matching its identifier, and sane RAM")
    func everyRow() {
        #expect(DeviceCatalog.all.count > 200)
        for model in DeviceCatalog.all {
            #expect(!model.name.isEmpty, "\(model.identifier)")
            #expect(model.name == model.name.trimmingCharacters(in: .whitespaces), "\(model.identifier)")
            #expect(model.identifier == model.identifier.trimmingCharacters(in: .whitespaces))
            #expect(Self.family(ofIdentifier: model.identifier) == model.family, "\(model.identifier)")
            #expect(model.ramOptionsMB == model.ramOptionsMB.sorted(), "\(model.identifier)")
            #expect(Set(model.ramOptionsMB).count == model.ramOptionsMB.count, "\(model.identifier)")
            #expect(model.ramOptionsMB.allSatisfy { $0 >= 128 && $0 <= 65_536 }, "\(model.identifier)")
            #expect(DeviceCatalog.model(for: model.identifier) == model)
            if model.family == .simulator {
                #expect(model.ramOptionsMB.isEmpty)
            }
        }
    }

    @Test("Every hardware family has rows")
    func familiesPresent() {
        let families = Set(DeviceCatalog.all.map(\.family))
        #expect(families == [.iPhone, .iPad, .iPod, .watch, .simulator])
    }

    @Test("Every source is name:CODE;ram:CODE with a documented code")
    func sources() {
        let nameCodes: Set<String> = ["N1", "N2", "N3", "WN1", "WN2", "SIM"]
        let ramCodes: Set<String> = ["S1", "S2", "S2+X", "S3", "S4", "S5", "X", "X2", "U", "WR1", "WR2", "none"]
        for model in DeviceCatalog.all {
            let parts = model.source.split(separator: ";", omittingEmptySubsequences: false)
            #expect(parts.count == 2, "\(model.identifier): \(model.source)")
            guard parts.count == 2 else { continue }
            #expect(parts[0].hasPrefix("name:") && nameCodes.contains(String(parts[0].dropFirst(5))), "\(model.source)")
            #expect(parts[1].hasPrefix("ram:") && ramCodes.contains(String(parts[1].dropFirst(4))), "\(model.source)")
            #expect((parts[1] == "ram:none") == model.ramOptionsMB.isEmpty, "\(model.identifier): \(model.source)")
        }
    }

    @Test("DeviceModel round-trips through JSON")
    func codable() throws {
        let model = try #require(DeviceCatalog.model(for: "iPad16,3"))
        let data = try JSONEncoder().encode(model)
        #expect(try JSONDecoder().decode(DeviceModel.self, from: data) == model)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains(#""family":"iPad""#))

        let resolution = RAMResolution(ramMB: 8192, ambiguous: true, resolvedByEstimate: true)
        let decoded = try JSONDecoder().decode(RAMResolution.self, from: JSONEncoder().encode(resolution))
        #expect(decoded == resolution)
    }

    /// The family a model identifier's prefix implies.
    static func family(ofIdentifier identifier: String) -> DeviceModel.Family? {
        if ["i386", "x86_64", "arm64"].contains(identifier) { return .simulator }
        let prefixes: [(String, DeviceModel.Family)] = [
            ("iPhone", .iPhone), ("iPad", .iPad), ("iPod", .iPod), ("Watch", .watch),
        ]
        for (prefix, family) in prefixes where identifier.hasPrefix(prefix) {
            let rest = identifier.dropFirst(prefix.count)
            let numbers = rest.split(separator: ",", omittingEmptySubsequences: false)
            guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil })
            else { return nil }
            return family
        }
        return nil
    }
}

/// Keeps the generated Swift table and `devices.tsv` in step.
///
/// Re-parses the data file independently of `Scripts/generate-device-catalog.py`; when this fails, run
/// `python3 Scripts/generate-device-catalog.py`.
@Suite("Generated table matches devices.tsv")
struct GeneratedTableTests {
    static let tsvURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AppleDeviceCatalogTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Sources/AppleDeviceCatalog/devices.tsv")

    static func parseTSV() throws -> [DeviceModel] {
        let text = try String(contentsOf: tsvURL, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let header = try #require(lines.first)
        #expect(header == "identifier\tname\tram_mb\tsource\tfamily")
        let families: [Substring: DeviceModel.Family] = [
            "iPhone": .iPhone, "iPad": .iPad, "iPod": .iPod, "Watch": .watch, "Simulator": .simulator,
        ]
        var models: [DeviceModel] = []
        for (index, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(fields.count == 5, "devices.tsv line \(index + 2): \(fields.count) fields")
            let ram = try fields[2].isEmpty ? [] : fields[2].split(separator: "|").map { try #require(Int($0)) }
            let family = try #require(families[fields[4]], "devices.tsv line \(index + 2): family \(fields[4])")
            models.append(
                DeviceModel(
                    identifier: String(fields[0]),
                    name: String(fields[1]),
                    family: family,
                    ramOptionsMB: ram,
                    source: String(fields[3])
                )
            )
        }
        return models
    }

    @Test("DeviceCatalog.all equals devices.tsv row by row")
    func rowByRow() throws {
        let expected = try Self.parseTSV()
        #expect(expected.count == DeviceCatalog.all.count)
        for (index, (fromTSV, compiled)) in zip(expected, DeviceCatalog.all).enumerated() {
            #expect(
                fromTSV == compiled,
                "row \(index + 1): devices.tsv has \(fromTSV), the generated table \(compiled)"
            )
        }
    }
}
