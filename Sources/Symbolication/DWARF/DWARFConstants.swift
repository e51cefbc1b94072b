/// The DWARF numbers the reader acts on (DWARF 5 §7, with the DWARF 2–4 and GNU values still in use).
enum DWARFTag {
    static let compileUnit: UInt64 = 0x11
    static let partialUnit: UInt64 = 0x3c
    static let skeletonUnit: UInt64 = 0x4a
    static let subprogram: UInt64 = 0x2e
    static let inlinedSubroutine: UInt64 = 0x1d
}

enum DWARFAttribute {
    static let name: UInt64 = 0x03
    static let stmtList: UInt64 = 0x10
    static let lowPC: UInt64 = 0x11
    static let highPC: UInt64 = 0x12
    static let compDir: UInt64 = 0x1b
    static let abstractOrigin: UInt64 = 0x31
    static let specification: UInt64 = 0x47
    static let ranges: UInt64 = 0x55
    static let callColumn: UInt64 = 0x57
    static let callFile: UInt64 = 0x58
    static let callLine: UInt64 = 0x59
    static let linkageName: UInt64 = 0x6e
    static let strOffsetsBase: UInt64 = 0x72
    static let addrBase: UInt64 = 0x73
    static let rnglistsBase: UInt64 = 0x74
    static let mipsLinkageName: UInt64 = 0x2007
    static let gnuAddrBase: UInt64 = 0x2133
    static let gnuRangesBase: UInt64 = 0x2132
}

enum DWARFForm {
    static let addr: UInt64 = 0x01
    static let block2: UInt64 = 0x03
    static let block4: UInt64 = 0x04
    static let data2: UInt64 = 0x05
    static let data4: UInt64 = 0x06
    static let data8: UInt64 = 0x07
    static let string: UInt64 = 0x08
    static let block: UInt64 = 0x09
    static let block1: UInt64 = 0x0a
    static let data1: UInt64 = 0x0b
    static let flag: UInt64 = 0x0c
    static let sdata: UInt64 = 0x0d
    static let strp: UInt64 = 0x0e
    static let udata: UInt64 = 0x0f
    static let refAddr: UInt64 = 0x10
    static let ref1: UInt64 = 0x11
    static let ref2: UInt64 = 0x12
    static let ref4: UInt64 = 0x13
    static let ref8: UInt64 = 0x14
    static let refUdata: UInt64 = 0x15
    static let indirect: UInt64 = 0x16
    static let secOffset: UInt64 = 0x17
    static let exprloc: UInt64 = 0x18
    static let flagPresent: UInt64 = 0x19
    static let strx: UInt64 = 0x1a
    static let addrx: UInt64 = 0x1b
    static let refSup4: UInt64 = 0x1c
    static let strpSup: UInt64 = 0x1d
    static let data16: UInt64 = 0x1e
    static let lineStrp: UInt64 = 0x1f
    static let refSig8: UInt64 = 0x20
    static let implicitConst: UInt64 = 0x21
    static let loclistx: UInt64 = 0x22
    static let rnglistx: UInt64 = 0x23
    static let refSup8: UInt64 = 0x24
    static let strx1: UInt64 = 0x25
    static let strx2: UInt64 = 0x26
    static let strx3: UInt64 = 0x27
    static let strx4: UInt64 = 0x28
    static let addrx1: UInt64 = 0x29
    static let addrx2: UInt64 = 0x2a
    static let addrx3: UInt64 = 0x2b
    static let addrx4: UInt64 = 0x2c
    static let gnuAddrIndex: UInt64 = 0x1f01
    static let gnuStrIndex: UInt64 = 0x1f02
    static let gnuRefAlt: UInt64 = 0x1f20
    static let gnuStrpAlt: UInt64 = 0x1f21
}

/// DWARF 5 unit types (`DW_UT_*`).
enum DWARFUnitType {
    static let compile: UInt8 = 1
    static let type: UInt8 = 2
    static let partial: UInt8 = 3
    static let skeleton: UInt8 = 4
    static let splitCompile: UInt8 = 5
    static let splitType: UInt8 = 6
}
