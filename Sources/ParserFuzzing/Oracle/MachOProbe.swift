import APMInspectCore
import Symbolication

/// One read of a Mach-O input the way `atos` and `symbolicate` read a dSYM or binary: the file opened, each
/// slice's DWARF indexed with its symbol table behind it, a bounded set of addresses resolved and rendered as atos
/// prints them (text with and without `-i`, and JSON), then the same slices opened again through the loader that
/// `symbolicate`'s dSYM store uses.
///
/// Everything the readers decided ends up in ``transcript``, so two probes of the same bytes must be equal.
struct MachOProbe {
    /// A broken property of the answers themselves.
    struct Problem {
        var property: String
        var message: String
    }

    /// What the readers answered, in order: errors with their locations, slices, issues, and atos's lines.
    private(set) var transcript: [String] = []
    /// The answers of each slice as `atos --format json` prints them.
    private(set) var json: [String] = []
    private(set) var problems: [Problem] = []
    /// The readers that ran: `mach-o`, then `dwarf-info` and `dwarf-line` for a slice with those sections, and the
    /// demanglers for the names of its symbol table.
    private(set) var readers: Set<String> = ["mach-o"]

    /// Slices opened per input (a fat header may list 30).
    static let maxSlices = 8
    /// Addresses resolved per slice.
    static let maxAddresses = 300
    /// Stands in for the binary's name in atos's lines.
    static let binaryName = "fuzz-input"

    init(_ bytes: [UInt8]) {
        let file: MachOFile
        do throws(SymbolicationError) {
            file = try MachOFile(bytes: bytes)
        } catch {
            note(error, "open")
            return
        }
        for diagnostic in file.diagnostics {
            transcript.append("diagnostic: \(diagnostic)")
            if diagnostic.location?.byteOffset == nil {
                problems.append(
                    Problem(
                        property: "unlocated-error",
                        message: "a slice skipped with no location: \(diagnostic.message)"
                    )
                )
            }
        }
        var answers: [Int: [UInt64: [SymbolicatedLocation]]] = [:]
        for (index, slice) in file.slices.prefix(Self.maxSlices).enumerated() {
            transcript.append(
                "slice \(index): \(slice.architecture) \(slice.uuid.map(String.init(describing:)) ?? "no uuid") "
                    + "filetype \(slice.fileType) at \(slice.fileOffset) size \(slice.size) "
                    + "\(slice.loadCommands.count) commands \(slice.segments.count) segments"
            )
            let image: DebugImage
            do throws(SymbolicationError) {
                image = try DebugImage(slice: slice)
            } catch {
                note(error, "slice \(index)")
                continue
            }
            for issue in image.issues.prefix(20) { note(issue, "slice \(index) issue") }
            answers[slice.fileOffset] = resolve(image, slice: slice, bytes: bytes)
            if let dwarf = try? slice.dwarfSections() {
                if !dwarf.info.isEmpty { readers.insert("dwarf-info") }
                if !dwarf.line.isEmpty { readers.insert("dwarf-line") }
            }
            if let symbols = try? slice.symbolTable() {
                let names = DemanglerProbe(symbols.symbols.lazy.map(\.name))
                transcript += names.transcript
                problems += names.problems
                readers.formUnion(names.readers)
            }
        }
        compareWithLoader(bytes, file: file, answers: answers)
    }

    /// Resolves the slice's addresses as atos does; returns the answers by address.
    private mutating func resolve(
        _ image: DebugImage,
        slice: MachOSlice,
        bytes: [UInt8]
    ) -> [UInt64: [SymbolicatedLocation]] {
        var results: [AtosResult] = []
        var answers: [UInt64: [SymbolicatedLocation]] = [:]
        for address in Self.addresses(image, slice: slice, bytes: bytes) {
            let locations = image.locations(at: address)
            answers[address] = locations
            checkChain(locations, address: address)
            let name = Self.binaryName
            transcript.append(AtosText.lines(locations, address: address, binary: name, inlines: false))
            transcript.append(AtosText.lines(locations, address: address, binary: name, inlines: true))
            results.append(AtosResult(locations, address: address, fileAddress: address))
        }
        do {
            json.append(try SortedJSONEncoder(pretty: false).encode(results))
        } catch {
            problems.append(Problem(property: "json-encode", message: "atos's JSON cannot be encoded: \(error)"))
        }
        return answers
    }

    /// What atos needs of an answer: inlined frames first, then one concrete function, at or before the address.
    private mutating func checkChain(_ locations: [SymbolicatedLocation], address: UInt64) {
        guard let concrete = locations.last else { return }
        if concrete.isInlined || locations.dropLast().contains(where: { !$0.isInlined }) {
            problems.append(
                Problem(
                    property: "malformed-frames",
                    message:
                        "frames that are not inlined callers ending in one concrete function: at \(hexAddress(address))"
                )
            )
        }
        if concrete.symbolOffset > address {
            problems.append(
                Problem(
                    property: "malformed-frames",
                    message: "a function offset past the address: \(concrete.symbolOffset) at \(hexAddress(address))"
                )
            )
        }
    }

    /// Opens the slices again as `symbolicate` does, through ``MachODebugImageLoader`` (listed by UUID, opened by
    /// UUID).
    ///
    /// Where a UUID names one slice, the loader's resolver must answer every address as the atos path did.
    private mutating func compareWithLoader(
        _ bytes: [UInt8],
        file: MachOFile,
        answers: [Int: [UInt64: [SymbolicatedLocation]]]
    ) {
        let loader = MachODebugImageLoader()
        let listed: [DebugSlice]
        do throws(SymbolicationError) {
            listed = try loader.slices(in: bytes)
        } catch {
            // The loader's own refusal (no slice with both a UUID and __TEXT) names no place in the file.
            transcript.append("loader: \(error.code.rawValue): \(error.message)")
            return
        }
        for debugSlice in listed.prefix(Self.maxSlices) {
            transcript.append("loader slice: \(debugSlice)")
            let uuid = file.slices.first { $0.fileOffset == debugSlice.fileOffset }?.uuid
            guard let expected = answers[debugSlice.fileOffset], let uuid,
                file.slices.filter({ $0.uuid == uuid }).count == 1
            else { continue }
            let resolver: any AddressResolver
            do throws(SymbolicationError) {
                resolver = try loader.open(bytes, slice: debugSlice)
            } catch {
                transcript.append("loader open: \(error.code.rawValue): \(error.message)")
                // Refused only when the slice has neither DWARF nor symbols: then atos had no answer either.
                if let answered = expected.first(where: { !$0.value.isEmpty }) {
                    problems.append(
                        Problem(
                            property: "symbolicate-atos-mismatch",
                            message:
                                "the loader refuses a slice atos answers for: \(error.message) (atos answered \(hexAddress(answered.key)))"
                        )
                    )
                }
                continue
            }
            for (address, locations) in expected.sorted(by: { $0.key < $1.key }) {
                guard resolver.locations(at: address) == locations else {
                    problems.append(
                        Problem(
                            property: "symbolicate-atos-mismatch",
                            message: "the loader's resolver and atos answer differently: at \(hexAddress(address))"
                        )
                    )
                    break
                }
            }
        }
    }

    /// Records a reader's error in the transcript; an error must say where in the file it is.
    private mutating func note(_ error: SymbolicationError, _ context: String) {
        transcript.append(
            "\(context): \(error.code.rawValue): \(error.message) at \(error.location?.description ?? "-")"
        )
        if error.location?.byteOffset == nil {
            problems.append(
                Problem(property: "unlocated-error", message: "an error without a byte offset: \(error.message)")
            )
        }
    }
}

/// `0x1000040a7`, as atos prints addresses.
private func hexAddress(_ value: UInt64) -> String {
    "0x" + String(value, radix: 16)
}
