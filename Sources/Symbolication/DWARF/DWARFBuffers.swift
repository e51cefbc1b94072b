import ByteAccess

/// The DWARF sections of one slice, borrowed as bytes for the time the index is being built.
struct DWARFBuffers {
    var info: BorrowedBytes
    var abbrev: BorrowedBytes
    var line: BorrowedBytes
    var str: BorrowedBytes
    var lineStr: BorrowedBytes
    var strOffsets: BorrowedBytes
    var addr: BorrowedBytes
    var ranges: BorrowedBytes
    var rnglists: BorrowedBytes
    var isLittleEndian: Bool

    /// Lends the bytes of `sections` to `body`; the buffers must not escape it.
    static func with<Result>(
        _ sections: DWARFSections,
        _ body: (DWARFBuffers) throws(SymbolicationError) -> Result
    ) throws(SymbolicationError) -> Result {
        typealias Failure = SymbolicationError
        return try sections.info.withBorrowedBytes { (info) throws(Failure) -> Result in
            try sections.abbrev.withBorrowedBytes { (abbrev) throws(Failure) -> Result in
                try sections.line.withBorrowedBytes { (line) throws(Failure) -> Result in
                    try sections.str.withBorrowedBytes { (str) throws(Failure) -> Result in
                        try sections.lineStr.withBorrowedBytes { (lineStr) throws(Failure) -> Result in
                            try sections.strOffsets.withBorrowedBytes { (strOffsets) throws(Failure) -> Result in
                                try sections.addr.withBorrowedBytes { (addr) throws(Failure) -> Result in
                                    try sections.ranges.withBorrowedBytes { (ranges) throws(Failure) -> Result in
                                        try sections.rnglists.withBorrowedBytes {
                                            (rnglists) throws(Failure) -> Result in
                                            try body(
                                                DWARFBuffers(
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
                                            )
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

    func bytes(_ section: DWARFSectionName) -> BorrowedBytes {
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
