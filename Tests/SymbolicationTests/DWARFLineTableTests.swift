import Testing

@testable import Symbolication

/// File paths and row lookups of a line table, as llvm-symbolizer makes and finds them.
@Suite struct DWARFLineTableTests {
    /// `.debug_str` holding `texts`, and a reference to each.
    private func strings(_ texts: [String]) -> (DWARFSections, [DWARFString]) {
        var bytes: [UInt8] = []
        var references: [DWARFString] = []
        for text in texts {
            references.append(DWARFString(section: .str, offset: UInt64(bytes.count)))
            bytes += Array(text.utf8) + [0]
        }
        return (DWARFSections(str: bytes), references)
    }

    @Test func dwarf4PathsJoinTheCompilationDirectoryUnlessADirectoryIsAbsolute() {
        let (sections, refs) = strings(["a.c", "inc", "/abs", "/x/y.c"])
        let table = DWARFLineTable(
            version: 4,
            files: [
                nil, .init(name: refs[0], directory: 0), .init(name: refs[0], directory: 1),
                .init(name: refs[0], directory: 2), .init(name: refs[3], directory: 1),
                .init(name: refs[0], directory: 9),
            ],
            directories: [refs[1], refs[2]],
            rows: [],
            sequences: []
        )
        #expect(table.fileName(0, compDir: "/cd", sections: sections) == nil)
        #expect(table.fileName(1, compDir: "/cd", sections: sections) == "/cd/a.c")
        #expect(table.fileName(2, compDir: "/cd", sections: sections) == "/cd/inc/a.c")
        #expect(table.fileName(3, compDir: "/cd", sections: sections) == "/abs/a.c")
        #expect(table.fileName(4, compDir: "/cd", sections: sections) == "/x/y.c")
        #expect(table.fileName(2, compDir: "", sections: sections) == "inc/a.c")
        // A directory index past the table: the name under the compilation directory, as llvm gives it.
        #expect(table.fileName(5, compDir: "/cd/", sections: sections) == "/cd/a.c")
        #expect(table.fileName(6, compDir: "/cd", sections: sections) == nil)
        #expect(table.fileName(.max, compDir: "/cd", sections: sections) == nil)
    }

    @Test func dwarf5DirectoryZeroIsTheCompilationDirectoryItself() {
        let (sections, refs) = strings(["/Demo", "a.c", "sub"])
        let table = DWARFLineTable(
            version: 5,
            files: [.init(name: refs[1], directory: 0), .init(name: refs[1], directory: 1)],
            directories: [refs[0], refs[2]],
            rows: [],
            sequences: []
        )
        // The unit's DW_AT_comp_dir is not joined again to directory 0.
        #expect(table.fileName(0, compDir: "/elsewhere", sections: sections) == "/Demo/a.c")
        #expect(table.fileName(1, compDir: "/elsewhere", sections: sections) == "/elsewhere/sub/a.c")
    }

    @Test func aRowIsTheLastAtOrBeforeTheAddressWithinItsSequence() {
        func row(_ address: UInt64, _ line: UInt32) -> DWARFLineTable.Row {
            .init(address: address, file: 1, line: line, column: 0)
        }
        // Two rows at 0x10 (the first instruction of a function often has two): the later one wins.
        let rows = [row(0x10, 1), row(0x10, 2), row(0x18, 3), row(0x20, 0), row(0x40, 7), row(0x48, 0)]
        let table = DWARFLineTable(
            version: 4,
            files: [],
            directories: [],
            rows: rows,
            sequences: [
                .init(lowPC: 0x10, highPC: 0x20, firstRow: 0, endRow: 4),
                .init(lowPC: 0x40, highPC: 0x48, firstRow: 4, endRow: 6),
            ]
        )
        #expect(table.row(for: 0x10)?.line == 2)
        #expect(table.row(for: 0x17)?.line == 2)
        #expect(table.row(for: 0x18)?.line == 3)
        #expect(table.row(for: 0x1f)?.line == 3)
        #expect(table.row(for: 0x20) == nil)
        #expect(table.row(for: 0x30) == nil)
        #expect(table.row(for: 0x47)?.line == 7)
        #expect(table.row(for: 0x48) == nil)
        #expect(table.row(for: 0x0f) == nil)
    }
}
