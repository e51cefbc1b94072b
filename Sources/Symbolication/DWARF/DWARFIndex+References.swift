extension DWARFIndex {
    /// A file of one unit's line table, named by index rather than as a path, so that a caller resolving many
    /// addresses can make each path once (``fileName(_:)``).
    package struct FileReference: Sendable, Hashable {
        var unit: Int32
        var table: Int32
        var index: UInt64
    }

    /// One frame of a lookup with its name and file left as references: ``Frame`` without the text, which is
    /// most of a lookup's cost when the same few thousand functions answer a hundred thousand addresses.
    package struct FrameReference: Sendable, Equatable {
        /// The function (``name(ofFunction:)``); -1 when the address lies in a unit's line table but no subprogram
        /// covers it.
        package var function: Int32
        package var offset: UInt64
        package var file: FileReference?
        /// 0 when unknown, as in DWARF.
        package var line: UInt32
        /// 0 when unknown, as in DWARF.
        package var column: UInt32
        package var isInlined: Bool
    }

    /// The frames for `fileAddress`, innermost first, into `frames` (emptied first, its storage kept so that a
    /// loop over many addresses allocates nothing per lookup); empty when the DWARF covers nothing there.
    ///
    /// ``frames(at:)`` is this with the text made: the two cannot disagree.
    package func frameReferences(at fileAddress: UInt64, into frames: inout [FrameReference]) {
        frames.removeAll(keepingCapacity: true)
        guard let leaf = functionSegments.owner(of: fileAddress) else {
            guard let unit = unitSegments.owner(of: fileAddress), let table = lineTable(ofUnit: unit),
                let row = lineTables[table].row(for: fileAddress)
            else { return }
            frames.append(
                FrameReference(
                    function: -1,
                    offset: 0,
                    file: FileReference(unit: unit, table: Int32(truncatingIfNeeded: table), index: UInt64(row.file)),
                    line: row.line,
                    column: row.column,
                    isInlined: false
                )
            )
            return
        }
        let unit = functions[Int(leaf)].unit
        let table = lineTable(ofUnit: unit)
        // The chain is walked from the leaf; each frame needs its callee's call site, kept from the step before.
        var current = Int(leaf)
        var callee: Function?
        while current >= 0, current < functions.count, frames.count <= DWARFIndexBuilder.maximumDepth {
            let function = functions[current]
            let concrete =
                function.isSubprogram || frames.count == DWARFIndexBuilder.maximumDepth
                || !(function.parent >= 0 && Int(function.parent) < functions.count)
            var frame = FrameReference(
                function: Int32(truncatingIfNeeded: current),
                offset: offset(of: fileAddress, in: function, concrete: concrete),
                file: nil,
                line: 0,
                column: 0,
                isInlined: !concrete
            )
            if let callee {
                frame.file = table.map {
                    FileReference(unit: unit, table: Int32(truncatingIfNeeded: $0), index: callee.callFile)
                }
                frame.line = callee.callLine
                frame.column = callee.callColumn
            } else if let table, let row = lineTables[table].row(for: fileAddress) {
                frame.file = FileReference(unit: unit, table: Int32(truncatingIfNeeded: table), index: UInt64(row.file))
                frame.line = row.line
                frame.column = row.column
            }
            frames.append(frame)
            if concrete { break }
            callee = function
            current = Int(function.parent)
        }
    }

    /// The name of function `function` (linkage name first); nil when it has none or the index is out of range.
    package func name(ofFunction function: Int32) -> String? {
        guard function >= 0, Int(function) < functions.count else { return nil }
        return functions[Int(function)].name?.text(in: sections)
    }

    /// The path of `file`, joined as ``frames(at:)`` joins it; nil when the table has no such file.
    package func fileName(_ file: FileReference) -> String? {
        guard file.table >= 0, Int(file.table) < lineTables.count else { return nil }
        return fileName(file.index, table: Int(file.table), unit: file.unit)
    }
}
