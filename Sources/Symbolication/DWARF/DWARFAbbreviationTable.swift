/// One abbreviation: the tag of the DIEs that use it and the attributes and forms they carry, in order.
struct DWARFAbbreviation: Sendable {
    struct Specification: Sendable {
        var attribute: UInt64
        var form: UInt64
        /// The value of a `DW_FORM_implicit_const` attribute, which lives here rather than in the DIE.
        var implicitConst: Int64
    }

    var code: UInt64
    var tag: UInt64
    var hasChildren: Bool
    var specifications: [Specification]
}

/// The abbreviation table at one offset of `.debug_abbrev`, shared by every unit that names that offset.
struct DWARFAbbreviationTable: Sendable {
    /// More abbreviations than any compiler writes in one table; the limit stops a crafted table from making the
    /// reader hold millions of them.
    static let maximumCount = 200_000
    /// More attributes than any DIE carries.
    static let maximumAttributes = 1_024

    private(set) var abbreviations: [DWARFAbbreviation] = []
    /// Index into `abbreviations` by code, for the usual dense codes 1…n; -1 for a code not in the table.
    private var dense: [Int32] = []
    private var sparse: [UInt64: Int32] = [:]

    func index(of code: UInt64) -> Int? {
        if code < UInt64(dense.count) {
            let value = dense[Int(code)]
            return value >= 0 ? Int(value) : nil
        }
        return sparse[code].map { Int($0) }
    }

    /// Reads the table at `reader`'s offset up to its terminating zero code.
    init(reading reader: inout DWARFReader) throws(SymbolicationError) {
        var seen = Set<UInt64>()
        while true {
            let entryOffset = reader.offset
            let code = try reader.uleb()
            if code == 0 { break }
            guard abbreviations.count < Self.maximumCount else {
                throw DWARFSectionName.abbrev.error(
                    "more than \(Self.maximumCount) abbreviations in one table",
                    at: entryOffset,
                    code: .limitExceeded
                )
            }
            guard seen.insert(code).inserted else {
                throw reader.error("abbreviation code \(code) appears twice in one table", at: entryOffset)
            }
            let tag = try reader.uleb()
            let children = try reader.u8()
            var specifications: [DWARFAbbreviation.Specification] = []
            while true {
                let attribute = try reader.uleb()
                let form = try reader.uleb()
                if attribute == 0, form == 0 { break }
                var implicitConst: Int64 = 0
                if form == DWARFForm.implicitConst { implicitConst = try reader.sleb() }
                guard specifications.count < Self.maximumAttributes else {
                    throw DWARFSectionName.abbrev.error(
                        "abbreviation \(code) has more than \(Self.maximumAttributes) attributes",
                        at: entryOffset,
                        code: .limitExceeded
                    )
                }
                specifications.append(.init(attribute: attribute, form: form, implicitConst: implicitConst))
            }
            abbreviations.append(
                DWARFAbbreviation(code: code, tag: tag, hasChildren: children != 0, specifications: specifications)
            )
        }
        let denseLimit = UInt64(4 * abbreviations.count + 64)
        var maximumDense: UInt64 = 0
        for abbreviation in abbreviations where abbreviation.code < denseLimit {
            maximumDense = max(maximumDense, abbreviation.code)
        }
        dense = Array(repeating: -1, count: Int(maximumDense) + 1)
        for (position, abbreviation) in abbreviations.enumerated() {
            if abbreviation.code < UInt64(dense.count) {
                dense[Int(abbreviation.code)] = Int32(position)
            } else {
                sparse[abbreviation.code] = Int32(position)
            }
        }
    }
}
