/// Reads and skips attribute values by form, for one unit's address and offset sizes.
struct DWARFFormDecoder {
    var version: Int
    var addressSize: Int
    var offsetSize: Int
    /// Offset of the unit header, which unit-relative references count from.
    var unitOffset: Int

    init(version: Int, addressSize: Int, offsetSize: Int, unitOffset: Int) {
        self.version = version
        self.addressSize = addressSize
        self.offsetSize = offsetSize
        self.unitOffset = unitOffset
    }

    init(_ unit: DWARFUnit) {
        version = unit.version
        addressSize = unit.addressSize
        offsetSize = unit.offsetSize
        unitOffset = unit.offset
    }

    /// The size of a value of `form` when it does not depend on the bytes, nil for variable-length forms.
    func fixedSize(_ form: UInt64) -> Int? {
        switch form {
        case DWARFForm.addr: addressSize
        case DWARFForm.data1, DWARFForm.ref1, DWARFForm.flag, DWARFForm.strx1, DWARFForm.addrx1: 1
        case DWARFForm.data2, DWARFForm.ref2, DWARFForm.strx2, DWARFForm.addrx2: 2
        case DWARFForm.strx3, DWARFForm.addrx3: 3
        case DWARFForm.data4, DWARFForm.ref4, DWARFForm.refSup4, DWARFForm.strx4, DWARFForm.addrx4: 4
        case DWARFForm.data8, DWARFForm.ref8, DWARFForm.refSig8, DWARFForm.refSup8: 8
        case DWARFForm.data16: 16
        case DWARFForm.flagPresent, DWARFForm.implicitConst: 0
        case DWARFForm.strp, DWARFForm.lineStrp, DWARFForm.secOffset, DWARFForm.strpSup, DWARFForm.gnuRefAlt,
            DWARFForm.gnuStrpAlt:
            offsetSize
        case DWARFForm.refAddr: version <= 2 ? addressSize : offsetSize
        default: nil
        }
    }

    /// The byte size of every DIE using `abbreviation` when all its forms are fixed, else nil.
    func fixedSize(of abbreviation: DWARFAbbreviation) -> Int? {
        var total = 0
        for specification in abbreviation.specifications {
            guard let size = fixedSize(specification.form) else { return nil }
            total += size
        }
        return total
    }

    /// Reads one value; `indirect` forms are followed a bounded number of times.
    func read(
        _ form: UInt64,
        implicitConst: Int64,
        from reader: inout DWARFReader
    ) throws(SymbolicationError) -> DWARFValue {
        var form = form
        var hops = 0
        while form == DWARFForm.indirect {
            hops += 1
            guard hops <= 4 else { throw reader.error("DW_FORM_indirect chain longer than 4") }
            form = try reader.uleb()
            if form == DWARFForm.implicitConst {
                throw reader.error("DW_FORM_indirect names DW_FORM_implicit_const, which has no value to read")
            }
        }
        switch form {
        case DWARFForm.addr: return .address(try reader.unsigned(size: addressSize))
        case DWARFForm.data1, DWARFForm.flag: return .unsigned(UInt64(try reader.u8()))
        case DWARFForm.data2: return .unsigned(UInt64(try reader.u16()))
        case DWARFForm.data4: return .unsigned(UInt64(try reader.u32()))
        case DWARFForm.data8: return .unsigned(try reader.u64())
        case DWARFForm.data16:
            try reader.skip(16)
            return .other
        case DWARFForm.sdata: return .signed(try reader.sleb())
        case DWARFForm.udata: return .unsigned(try reader.uleb())
        case DWARFForm.implicitConst: return .signed(implicitConst)
        case DWARFForm.flagPresent: return .unsigned(1)
        case DWARFForm.string: return .inlineString(try reader.cStringRange())
        case DWARFForm.strp: return .strp(try reader.unsigned(size: offsetSize))
        case DWARFForm.lineStrp: return .lineStrp(try reader.unsigned(size: offsetSize))
        case DWARFForm.strx, DWARFForm.gnuStrIndex: return .strIndex(try reader.uleb())
        case DWARFForm.strx1: return .strIndex(try reader.unsigned(size: 1))
        case DWARFForm.strx2: return .strIndex(try reader.unsigned(size: 2))
        case DWARFForm.strx3: return .strIndex(try reader.unsigned(size: 3))
        case DWARFForm.strx4: return .strIndex(try reader.unsigned(size: 4))
        case DWARFForm.addrx, DWARFForm.gnuAddrIndex: return .addressIndex(try reader.uleb())
        case DWARFForm.addrx1: return .addressIndex(try reader.unsigned(size: 1))
        case DWARFForm.addrx2: return .addressIndex(try reader.unsigned(size: 2))
        case DWARFForm.addrx3: return .addressIndex(try reader.unsigned(size: 3))
        case DWARFForm.addrx4: return .addressIndex(try reader.unsigned(size: 4))
        case DWARFForm.ref1: return relative(try reader.unsigned(size: 1))
        case DWARFForm.ref2: return relative(try reader.unsigned(size: 2))
        case DWARFForm.ref4: return relative(try reader.unsigned(size: 4))
        case DWARFForm.ref8: return relative(try reader.unsigned(size: 8))
        case DWARFForm.refUdata: return relative(try reader.uleb())
        case DWARFForm.refAddr:
            return .reference(try reader.unsigned(size: version <= 2 ? addressSize : offsetSize))
        case DWARFForm.secOffset: return .sectionOffset(try reader.unsigned(size: offsetSize))
        case DWARFForm.rnglistx: return .rnglistIndex(try reader.uleb())
        case DWARFForm.loclistx:
            _ = try reader.uleb()
            return .other
        case DWARFForm.refSig8, DWARFForm.refSup8:
            try reader.skip(8)
            return .other
        case DWARFForm.refSup4:
            try reader.skip(4)
            return .other
        case DWARFForm.strpSup, DWARFForm.gnuRefAlt, DWARFForm.gnuStrpAlt:
            try reader.skip(offsetSize)
            return .other
        case DWARFForm.block1:
            try reader.skip(Int(try reader.u8()))
            return .other
        case DWARFForm.block2:
            try reader.skip(Int(try reader.u16()))
            return .other
        case DWARFForm.block4:
            try reader.skip(UInt64(try reader.u32()))
            return .other
        case DWARFForm.block, DWARFForm.exprloc:
            try reader.skip(try reader.uleb())
            return .other
        default:
            throw reader.error("unknown attribute form \(hex(form))")
        }
    }

    /// Skips one value without decoding it.
    func skip(_ form: UInt64, from reader: inout DWARFReader) throws(SymbolicationError) {
        if let size = fixedSize(form) {
            try reader.skip(size)
        } else {
            _ = try read(form, implicitConst: 0, from: &reader)
        }
    }

    private func relative(_ value: UInt64) -> DWARFValue {
        let (sum, overflow) = value.addingReportingOverflow(UInt64(unitOffset))
        return overflow ? .other : .reference(sum)
    }
}
