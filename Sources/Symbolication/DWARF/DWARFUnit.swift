/// One unit of `.debug_info`: where it is, how its header sizes things, and the facts of its unit DIE that the
/// rest of the unit needs (string, address and range list bases, the base address, the line table).
struct DWARFUnit: Sendable {
    /// Offset of the unit header in `.debug_info`.
    var offset: Int
    /// Offset just past the unit.
    var end: Int
    /// Offset of the first DIE.
    var firstDIE: Int
    var version: Int
    var unitType: UInt8
    var addressSize: Int
    /// 4 for 32-bit DWARF, 8 for 64-bit DWARF.
    var offsetSize: Int
    /// Index into the reader's abbreviation tables.
    var abbreviationTable: Int

    var strOffsetsBase: UInt64?
    var addrBase: UInt64?
    var rnglistsBase: UInt64?
    /// The unit DIE's `DW_AT_low_pc`: the base of `.debug_ranges` lists and `DW_RLE_offset_pair` entries.
    var baseAddress: UInt64 = 0
    var compDir: DWARFString?
    /// Index into the index's line tables, when the unit has one that could be read.
    var lineTable: Int?
}

/// An attribute value as a DIE stores it, before the unit's bases and sections turn it into an address or text.
enum DWARFValue: Sendable, Equatable {
    case unsigned(UInt64)
    case signed(Int64)
    case address(UInt64)
    case addressIndex(UInt64)
    /// A `DW_FORM_string`: offsets in `.debug_info`.
    case inlineString(Range<Int>)
    case strp(UInt64)
    case lineStrp(UInt64)
    case strIndex(UInt64)
    /// A reference, already made absolute (an offset in `.debug_info`).
    case reference(UInt64)
    case sectionOffset(UInt64)
    case rnglistIndex(UInt64)
    /// A value the reader has no use for (blocks, expressions, flags, supplementary references).
    case other

    /// The value as an unsigned constant (constants, flags and section offsets alike).
    var constant: UInt64? {
        switch self {
        case .unsigned(let value), .sectionOffset(let value): value
        case .signed(let value): UInt64(bitPattern: value)
        default: nil
        }
    }

    /// True for the constant class, which makes `DW_AT_high_pc` a length rather than an address.
    var isConstantClass: Bool {
        switch self {
        case .unsigned, .signed: true
        default: false
        }
    }
}
