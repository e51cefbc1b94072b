import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import Symbolication

/// The armv7 fixtures (`ThumbFixtures/`, made by `Scripts/make-thumb-fixtures.py`).
///
/// LedgerCore is an embedded framework's dylib of Thumb-2 code with one ARM-mode function, with its dSYM. llvm-symbolizer's answers for every
/// byte and every call site are checked by `.ci/steps/symbolication-oracle.sh`; the lines asserted here are the
/// ones it gives for the call instructions (`llvm-symbolizer --inlines --obj=… 0x102a` and so on).
enum ThumbFixtures {
    static let folder: String = {
        var path = "\(#filePath)"
        while let last = path.last, last != "/" { path.removeLast() }
        return path + "ThumbFixtures/"
    }()
    static let uuid = "91ded5040f203527989bcce82086a5e9"

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: folder + name)))
    }

    static func describe(_ frame: CrashReport.Frame) -> String {
        let place = frame.line.map {
            " (\(frame.file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"):\($0))"
        }
        return "\(frame.symbol ?? "-") + \(frame.symbolOffset.map { String($0) } ?? "-")\(place ?? "")"
            + (frame.inlined == true ? " [inlined]" : "")
    }
}

@Suite struct ThumbLookupTests {
    @Test func aThumbReturnAddressLosesItsBitAndStepsBackAHalfword() {
        // Thumb caller: 0x102f returns to 0x102e after a 32-bit `bl` at 0x102a; 0x102c is inside it.
        #expect(ReportSymbolicator.lookupAddress(0x102f, isReturnAddress: true, isARM32: true) == 0x102c)
        // ARM caller (4-byte instructions, bit 0 clear): 0x1098 after a `blx` at 0x1094.
        #expect(ReportSymbolicator.lookupAddress(0x1098, isReturnAddress: true, isARM32: true) == 0x1096)
        // A crashed frame is the instruction itself: only a stray Thumb bit is cleared.
        #expect(ReportSymbolicator.lookupAddress(0x10c4, isReturnAddress: false, isARM32: true) == 0x10c4)
        #expect(ReportSymbolicator.lookupAddress(0x10c5, isReturnAddress: false, isARM32: true) == 0x10c4)
        // Nothing wraps below zero.
        #expect(ReportSymbolicator.lookupAddress(1, isReturnAddress: true, isARM32: true) == 0)
        #expect(ReportSymbolicator.lookupAddress(0, isReturnAddress: true, isARM32: false) == 0)
        // Other architectures keep the one-byte step.
        #expect(ReportSymbolicator.lookupAddress(0x4001, isReturnAddress: true, isARM32: false) == 0x4000)
        #expect(ReportSymbolicator.lookupAddress(0x4001, isReturnAddress: false, isARM32: false) == 0x4001)
    }

    @Test func armv7SlicesAreMarkedAndOthersAreNot() {
        for (arch, expected) in [
            ("armv7", true), ("armv7s", true), ("armv7k", true), ("armv6", true), ("armv7m", true),
            ("arm64", false), ("arm64e", false), ("arm64_32", false), ("x86_64", false),
        ] {
            let slice = DebugSlice(uuid: ThumbFixtures.uuid, arch: arch, textVMAddress: 0, size: 1)
            #expect(slice.isARM32 == expected, "\(arch)")
        }
    }

    @Test func theDylibsSymbolTableIsReadAsLLVMNmReadsIt() throws {
        let file = try MachOFile(bytes: try ThumbFixtures.bytes("LedgerCore"))
        let slice = try #require(file.slices.first)
        #expect(slice.architecture.name == "armv7")
        #expect(slice.architecture.isARM32)
        let table = try slice.symbolTable()
        let listing = String(decoding: try ThumbFixtures.bytes("expected/LedgerCore.nm"), as: UTF8.self)
        let expected = listing.split(separator: "\n").compactMap { line -> (UInt64, String)? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let address = UInt64(fields[0], radix: 16) else { return nil }
            return (address, String(fields[2].dropFirst()))
        }
        #expect(expected.count == 6)
        for (address, name) in expected {
            // Thumb functions' symbols are even (the Thumb bit is N_ARM_THUMB_DEF in n_desc, not in the address).
            #expect(address % 2 == 0)
            let found = table.locations(at: address + 1)
            #expect(found.first?.symbol == name, "0x\(String(address, radix: 16))")
            #expect(found.first?.symbolOffset == 1)
        }
    }

    private func symbolicate(_ name: String, with path: String) throws -> ReportRewriter.Result {
        let store = DSYMStore(paths: [path], loader: MachODebugImageLoader())
        return try ReportRewriter.rewrite(
            try ThumbFixtures.bytes("reports/" + name),
            with: ReportSymbolicator(source: store)
        )
    }

    @Test func aNoreturnCallAtTheEndOfAFunctionNamesItsCaller() throws {
        let result = try symbolicate("LedgerCore-armv7-limit.crash", with: ThumbFixtures.folder + "LedgerCore.dSYM")
        let frames = result.report.threads[0].frames.filter { $0.image == "LedgerCore" }.map(ThumbFixtures.describe)
        // 0x35902f: ledger_check's last instruction calls ledger_fail; one byte back would be ledger_sum's first.
        #expect(
            frames == [
                "ledger_fail + 4 (Ledger.c:23)",
                "ledger_check + 19 (Ledger.c:42)",
                "ledger_balance + 11 (Ledger.c:66)",
            ]
        )
        let expected = try ThumbFixtures.bytes("reports/expected/LedgerCore-armv7-limit.crash")
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func thumbAndARMCallersAndAnInlinedCallAtTheEndOfText() throws {
        let result = try symbolicate("LedgerCore-armv7-index.crash", with: ThumbFixtures.folder + "LedgerCore.dSYM")
        let crashed = result.report.threads[0].frames.filter { $0.image == "LedgerCore" }.map(ThumbFixtures.describe)
        #expect(
            crashed == [
                "ledger_fail + 4 (Ledger.c:23)",
                // The last call of __text: one byte back from 0x3590e1 is past the section, nothing at all.
                "checked_index + 5 (Ledger.c:29) [inlined]",
                "ledger_value + 27 (Ledger.c:36)",
                // An ARM-mode caller: its return address is even and 4-byte aligned.
                "ledger_checksum + 48 (Ledger.c:59)",
                "ledger_balance + 25 (Ledger.c:68)",
            ]
        )
        let sampled = result.report.threads[1].frames.filter { $0.image == "LedgerCore" }.map(ThumbFixtures.describe)
        // 0x359051 follows a 16-bit `blx r4`: one byte back is the loop's next line (49), the call is on line 50.
        #expect(
            sampled == [
                "ledger_sum + 35 (Ledger.c:50)",
                "ledger_checksum + 76 (Ledger.c:61)",
                "ledger_balance + 25 (Ledger.c:68)",
            ]
        )
        let expected = try ThumbFixtures.bytes("reports/expected/LedgerCore-armv7-index.crash")
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func theSymbolTableAloneNamesTheSameFunctions() throws {
        // The dylib without DWARF (as a system library from DeviceSupport would be): names and offsets only.
        let result = try symbolicate("LedgerCore-armv7-limit.crash", with: ThumbFixtures.folder + "LedgerCore")
        let frames = result.report.threads[0].frames.filter { $0.image == "LedgerCore" }.map(ThumbFixtures.describe)
        #expect(frames == ["ledger_fail + 4", "ledger_check + 19", "ledger_balance + 11"])
    }
}
