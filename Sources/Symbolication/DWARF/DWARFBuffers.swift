/// The DWARF sections of one slice, borrowed as raw bytes for the time the index is being built.
struct DWARFBuffers {
    var info: UnsafeRawBufferPointer
    var abbrev: UnsafeRawBufferPointer
    var line: UnsafeRawBufferPointer
    var str: UnsafeRawBufferPointer
    var lineStr: UnsafeRawBufferPointer
    var strOffsets: UnsafeRawBufferPointer
    var addr: UnsafeRawBufferPointer
    var ranges: UnsafeRawBufferPointer
    var rnglists: UnsafeRawBufferPointer
    var isLittleEndian: Bool

    /// Lends the bytes of `sections` to `body`; the buffers must not escape it.
    static func with<Result>(
        _ sections: DWARFSections,
        _ body: (DWARFBuffers) throws(SymbolicationError) -> Result
    ) throws(SymbolicationError) -> Result {
        // Typed throws do not cross the standard library's rethrowing closures, so the error is carried out.
        var failure: SymbolicationError?
        let result: Result? = sections.info.withUnsafeBytes { info in
            sections.abbrev.withUnsafeBytes { abbrev in
                sections.line.withUnsafeBytes { line in
                    sections.str.withUnsafeBytes { str in
                        sections.lineStr.withUnsafeBytes { lineStr in
                            sections.strOffsets.withUnsafeBytes { strOffsets in
                                sections.addr.withUnsafeBytes { addr in
                                    sections.ranges.withUnsafeBytes { ranges in
                                        sections.rnglists.withUnsafeBytes { rnglists in
                                            let buffers = DWARFBuffers(
                                                info: info,
                                                abbrev: abbrev,
                                                line: line,
                                                str: str,
                                                lineStr: lineStr,
                                                strOffsets: strOffsets,
                                                addr: addr,
                                                ranges: ranges,
                                                rnglists: rnglists,
                                                isLittleEndian: sections.isLittleEndian
                                            )
                                            do throws(SymbolicationError) {
                                                return try body(buffers)
                                            } catch {
                                                failure = error
                                                return nil
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if let failure { throw failure }
        guard let result else { throw DWARFSectionName.info.error("the index could not be built", at: 0) }
        return result
    }

    func bytes(_ section: DWARFSectionName) -> UnsafeRawBufferPointer {
        switch section {
        case .info: info
        case .abbrev: abbrev
        case .line: line
        case .str: str
        case .lineStr: lineStr
        case .strOffsets: strOffsets
        case .addr: addr
        case .ranges: ranges
        case .rnglists: rnglists
        }
    }

    func reader(_ section: DWARFSectionName, at offset: Int = 0) -> DWARFReader {
        DWARFReader(bytes(section), section: section, littleEndian: isLittleEndian, offset: offset)
    }

    func string(strp offset: UInt64) -> String? {
        reader(.str).string(at: offset)
    }

    func string(lineStrp offset: UInt64) -> String? {
        reader(.lineStr).string(at: offset)
    }
}
