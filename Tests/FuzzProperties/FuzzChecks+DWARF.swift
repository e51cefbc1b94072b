import APMInspectCore
import Symbolication

extension FuzzChecks {
    /// The order of the sections in a `FuzzDWARF` input.
    static var dwarfSectionOrder: [WritableKeyPath<DWARFSections, [UInt8]>] {
        [
            \.info, \.abbrev, \.line, \.str, \.lineStr, \.strOffsets, \.addr, \.ranges, \.rnglists,
        ]
    }

    /// Splits a `FuzzDWARF` input into sections: each a 4-byte little-endian length then its bytes, in the order
    /// of ``dwarfSectionOrder``; a length past the end takes what is left, missing sections are empty.
    package static func dwarfSections(_ bytes: [UInt8]) -> DWARFSections {
        var sections = DWARFSections()
        var position = 0
        for keyPath in dwarfSectionOrder {
            guard bytes.count - position >= 4 else { break }
            var length = 0
            for index in 0..<4 { length |= Int(bytes[position + index]) << (8 * index) }
            position += 4
            let taken = min(length, bytes.count - position)
            sections[keyPath: keyPath] = Array(bytes[position..<(position + taken)])
            position += taken
        }
        return sections
    }

    /// The inverse of ``dwarfSections(_:)``, for seeds.
    package static func dwarfInput(_ sections: DWARFSections) -> [UInt8] {
        var bytes: [UInt8] = []
        for keyPath in dwarfSectionOrder {
            let part = sections[keyPath: keyPath]
            for index in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: part.count >> (8 * index))) }
            bytes += part
        }
        return bytes
    }

    /// `FuzzDWARF`: the index is built or refused with an error that names a DWARF section and an offset inside
    /// it; two builds answer alike; every answer is a chain of inlined frames ending in one concrete function, no
    /// longer than the depth limit; the functions indexed stay in proportion to the input.
    public static func dwarf(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let sections = dwarfSections(bytes)
        func located(_ error: SymbolicationError) -> Bool {
            guard let keyPath = error.location?.keyPath, keyPath.hasPrefix("__DWARF.__debug_"),
                let offset = error.location?.byteOffset
            else { return false }
            return offset >= 0 && offset <= bytes.count
        }
        let index: DWARFIndex
        do {
            index = try DWARFIndex(sections)
        } catch {
            found.require(located(error), "an error without a DWARF section and offset: \(error)")
            return found
        }
        for issue in index.issues {
            found.require(located(issue), "an issue without a DWARF section and offset: \(issue)")
        }
        found.require(index.functionCount <= sections.info.count, "more functions than bytes of .debug_info")
        let again = try? DWARFIndex(sections)
        // Addresses worth asking about: the first words of the input and a walk over the low addresses.
        var addresses: [UInt64] = Array(stride(from: 0, to: 0x400, by: 3))
        var cursor = 0
        while cursor + 8 <= bytes.count, addresses.count < 600 {
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[cursor + index]) << (8 * UInt64(index)) }
            addresses.append(value)
            addresses.append(value &+ 1)
            cursor += 8
        }
        for address in addresses {
            let frames = index.frames(at: address)
            found.require(frames == (again?.frames(at: address) ?? []), "two builds answer \(address) differently")
            found.require(frames.count <= 1_025, "a chain of \(frames.count) frames")
            if let last = frames.last {
                found.require(!last.isInlined, "the last frame is marked inlined")
                found.require(frames.dropLast().allSatisfy(\.isInlined), "a frame before the last is not inlined")
                found.require(last.offset <= address, "an offset past the address")
            }
        }
        return found
    }
}
