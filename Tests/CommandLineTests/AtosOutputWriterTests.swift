import Foundation
import FuzzReplaySupport
import ReportRendering
import Testing

@testable import Symbolication
@testable import apm_inspect

/// `atos` writes its answers by hand (``AtosOutputWriter``); they must be byte for byte what the `String` lines of
/// ``AtosText/lines(_:address:binary:inlines:)`` and the sorted JSON of ``AtosResult`` give.
@Suite struct AtosOutputWriterTests {
    static let fixtures = "Tests/SymbolicationTests/Fixtures/"

    /// Every address of the fixtures' `__text`, a few around it and one nothing covers, in every form.
    @Test(arguments: ["Demo-arm64", "Demo-x86_64", "Demo-fat"])
    func theWriterWritesWhatTheStringFormsGive(name: String) throws {
        let file = try MachOFile(path: Self.fixtures + "\(name).dSYM/Contents/Resources/DWARF/\(name)")
        for slice in file.slices {
            let image = try DebugImage(slice: slice)
            let text = try #require(slice.section("__TEXT", "__text"))
            let addresses = [0] + Array((text.address - 8)..<(text.address + text.size + 8))
            for (json, inlines) in [(false, false), (false, true), (true, false)] {
                var written: [UInt8] = []
                let output = OutputBuffer(capacity: 256) { written += $0 }
                let locator = ImageLocator(image: image)
                let writer = AtosOutputWriter(
                    locator: locator,
                    json: json,
                    inlines: inlines,
                    binary: name,
                    output: output
                )
                var locations: [ImageLocator.Location] = []
                var expected = ""
                var results: [AtosResult] = []
                // The fixture's file addresses stand in for runtime ones: the JSON's fileAddress is present.
                for address in addresses {
                    locator.locations(at: address, into: &locations)
                    writer.write(locations, address: address, fileAddress: address)
                    let plain = image.locations(at: address)
                    if json {
                        results.append(AtosResult(plain, address: address, fileAddress: address))
                    } else {
                        expected += AtosText.lines(plain, address: address, binary: name, inlines: inlines)
                    }
                }
                writer.finish()
                if json { expected = try JSONOutput.encode(results, pretty: true) + "\n" }
                #expect(String(decoding: written, as: UTF8.self) == expected, "\(name) json \(json) -i \(inlines)")
            }
        }
    }

    /// No address at all: an empty JSON array in the encoder's layout, and no text.
    @Test func noAddressesWriteAnEmptyArray() throws {
        let file = try MachOFile(path: Self.fixtures + "Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64")
        let image = try DebugImage(slice: try #require(file.slices.first))
        var written: [UInt8] = []
        let writer = AtosOutputWriter(
            locator: ImageLocator(image: image),
            json: true,
            inlines: false,
            binary: "Demo-arm64",
            output: OutputBuffer { written += $0 }
        )
        writer.finish()
        let results: [AtosResult] = []
        #expect(String(decoding: written, as: UTF8.self) == (try JSONOutput.encode(results, pretty: true)) + "\n")
    }

    /// A name with quotes, a backslash and control characters is quoted as the JSON writer quotes it.
    @Test func quotingMatchesTheJSONWriter() throws {
        let name = "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}é/"
        let quoted = String(decoding: AtosOutputWriter.quoted(name), as: UTF8.self)
        #expect("[\n  " + quoted + "\n]" == (try JSONOutput.encode([name], pretty: true)))
    }

    /// A resolver whose every answer is an inline chain of names and files that, written raw, would end the line
    /// and forge answers of their own.
    struct ForgingResolver: AddressResolver {
        static let name = "evil\n0x1000 (in Forged) (forged.c:1)\n\u{1B}[2J\r\u{0}|<script>"
        static let file = "/src/bad\nname\u{1B}[31m\t.c"

        func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
            [
                SymbolicatedLocation(
                    symbol: "inner" + Self.name,
                    symbolOffset: 2,
                    file: Self.file,
                    line: 4,
                    isInlined: true
                ),
                SymbolicatedLocation(symbol: Self.name, symbolOffset: 8, file: Self.file, line: 12),
            ]
        }
    }

    /// Each address is one line (one per function with -i) whatever its names hold, controls shown as escapes;
    /// the JSON form keeps the names exactly, escaped by the JSON quoting.
    @Test func forgingNamesStayOnTheirLineInTextAndExactInJSON() throws {
        let image = DebugImage(
            uuid: nil,
            architecture: .arm64,
            textVMAddress: 0,
            dwarf: nil,
            symbols: ForgingResolver()
        )
        let addresses: [UInt64] = [0x1000, 0x1004, 0x2000]
        for (json, inlines) in [(false, false), (false, true), (true, true)] {
            var written: [UInt8] = []
            let locator = ImageLocator(image: image)
            let writer = AtosOutputWriter(
                locator: locator,
                json: json,
                inlines: inlines,
                binary: "Bin\nForged\u{1B}",
                output: OutputBuffer(capacity: 64) { written += $0 }
            )
            var locations: [ImageLocator.Location] = []
            for address in addresses {
                locator.locations(at: address, into: &locations)
                writer.write(locations, address: address, fileAddress: nil)
            }
            writer.finish()
            let output = String(decoding: written, as: UTF8.self)
            #expect(!MarkupStructure.hasRawControl(output), "json \(json) -i \(inlines)")
            if json {
                let results = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [[String: Any]])
                #expect(results.count == addresses.count)
                let symbols = results.flatMap { ($0["locations"] as? [[String: Any]]) ?? [] }
                    .compactMap { $0["symbol"] as? String }
                #expect(symbols.filter { $0 == ForgingResolver.name }.count == addresses.count)
            } else {
                let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                #expect(lines.count == addresses.count * (inlines ? 2 : 1), "-i \(inlines)")
                #expect(lines.allSatisfy { $0.contains(" (in Bin\\nForged\\x1b) (bad\\nname\\x1b[31m\\t.c:") })
                #expect(!lines.contains { $0.hasPrefix("0x1000") })
            }
        }
    }
}
