import APMInspectCore
import InputMutation
import Testing

@Suite("StructureMap")
struct StructureMapTests {
    private func text(_ bytes: [UInt8], _ span: StructureMap.Span) -> String {
        String(decoding: bytes[span.range], as: UTF8.self)
    }

    @Test("an .ips file maps the header and body values, numbers and keys")
    func ipsSpans() {
        let input = MutationInput(bytes: Fixtures.ips)
        #expect(input.family == .json)
        let numbers = input.map.spans(.jsonNumber).map { text(Fixtures.ips, $0) }
        #expect(numbers.contains("412"))
        #expect(numbers.contains("4294967296"))
        let keys = input.map.spans(.jsonKey).map { text(Fixtures.ips, $0) }
        #expect(keys.contains("\"bug_type\""))
        #expect(keys.contains("\"faultingThread\""))
        let values = input.map.spans(.jsonValue).map { text(Fixtures.ips, $0) }
        #expect(values.contains("\"SIGABRT\""))
        #expect(input.map.boundaries.contains(Fixtures.ips.firstIndex(of: 0x0A) ?? -1))
    }

    @Test("a crash report maps Key: Value fields and frame columns")
    func crashTextSpans() {
        let input = MutationInput(bytes: Fixtures.crashText)
        #expect(input.family == .crashText)
        let fields = input.map.spans(.fieldValue).map { text(Fixtures.crashText, $0) }
        #expect(fields.contains("EXC_BAD_ACCESS (SIGSEGV)"))
        #expect(fields.contains("iPhone12,1"))
        let columns = input.map.spans(.frameColumn).map { text(Fixtures.crashText, $0) }
        #expect(columns.contains("0x00000001bd1e5414"))
        #expect(columns.contains("__pthread_kill"))
        #expect(columns.contains("<2c1b2f7d4c1a3b2e9f0a1b2c3d4e5f60>"))
    }

    @Test("pcap records: both lengths of each record, walked by their captured length")
    func pcapSpans() {
        let input = MutationInput(bytes: Fixtures.pcap)
        #expect(input.family == .pcap)
        let lengths = input.map.spans.filter { $0.role == .lengthField(width: 4, bigEndian: false) }
            .map(\.range.lowerBound)
        // The first record's captured length, read from its header: the walk must land on the second record.
        let secondRecord = 24 + 16 + Int(Fixtures.pcap[32])
        #expect(lengths.contains(16))
        #expect(lengths.contains(32))
        #expect(lengths.contains(secondRecord + 8))
        #expect(input.map.boundaries.contains(secondRecord))
    }

    @Test("pcapng blocks: both copies of each block length")
    func pcapngSpans() {
        let input = MutationInput(bytes: Fixtures.pcapng)
        #expect(input.family == .pcapng)
        let lengths = input.map.spans.filter { $0.role == .lengthField(width: 4, bigEndian: false) }
            .map(\.range.lowerBound)
        #expect(lengths.contains(4))
        #expect(lengths.contains(28 - 4))
        #expect(input.map.boundaries.contains(28))
    }

    @Test("tar entries: size and checksum octal fields of each header")
    func tarSpans() {
        let input = MutationInput(bytes: Fixtures.tar)
        #expect(input.family == .tar)
        let octal = input.map.spans(.octalField).map(\.range)
        #expect(octal.contains(124..<136))
        #expect(octal.contains(148..<156))
        #expect(octal.contains(1024 + 124..<1024 + 136))
        #expect(input.map.boundaries.contains(1024))
    }

    @Test("an SQLite database: page size, b-tree page headers and schema SQL")
    func sqliteSpans() throws {
        let bytes = try Fixtures.corpus("powerlog/ios15_offset-change_D16AP_19H12.PLSQL")
        let input = MutationInput(bytes: bytes)
        #expect(input.family == .sqlite)
        #expect(input.map.spans.contains { $0.range == 16..<18 && $0.role == .lengthField(width: 2, bigEndian: true) })
        #expect(input.map.spans.contains { $0.range == 100..<101 && $0.role == .headerBytes })
        let schema = input.map.spans(.schemaText).map { text(bytes, $0) }
        #expect(schema.contains { $0.hasPrefix("CREATE TABLE") })
    }

    @Test("gzip: header flags and the ISIZE trailer")
    func gzipSpans() throws {
        let bytes = try Fixtures.corpus("http/chrome_h2_ssl-inside-connect.har.gz")
        let input = MutationInput(bytes: bytes)
        #expect(input.family == .gzip)
        #expect(input.map.spans.contains { $0.range == (bytes.count - 4)..<bytes.count })
    }
}
