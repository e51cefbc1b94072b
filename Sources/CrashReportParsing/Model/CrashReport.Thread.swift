import APMInspectCore

extension CrashReport {
    /// One thread's backtrace and, for the crashed one, its registers.
    public struct Thread: Sendable, Equatable, Codable {
        /// Position in the report (`Thread N`), which `crashedThread` refers to.
        public var index: Int
        /// The kernel thread id (JSON `id`), not the index.
        public var id: UInt64?
        /// The thread's name, when it has one (`com.apple.main-thread` or a `pthread` name).
        public var name: String?
        /// The dispatch queue it was running, when the report names one.
        public var queue: String?
        /// True for the thread that crashed: the one to read first.
        public var crashed: Bool
        /// `Thread N Attributed:` (EXC_RESOURCE blames this thread without it crashing).
        public var attributed: Bool
        /// The backtrace, innermost frame first.
        public var frames: [Frame]
        /// `ARM_THREAD_STATE64`, `x86_THREAD_STATE`, or the text heading's flavour.
        public var registerFlavor: String?
        /// The thread state, for the crashed thread only (as reports write it).
        public var registers: [Register]?
        /// The registers of the JSON thread state's nested `rosetta` object (`tmp0`, `tmp1`, `tmp2` of a thread
        /// translated by Rosetta 2 on Apple silicon), in the order written; nil when there is none.
        public var rosettaRegisters: [Register]?

        package init(
            index: Int,
            id: UInt64? = nil,
            name: String? = nil,
            queue: String? = nil,
            crashed: Bool = false,
            attributed: Bool = false,
            frames: [Frame] = [],
            registerFlavor: String? = nil,
            registers: [Register]? = nil,
            rosettaRegisters: [Register]? = nil
        ) {
            self.index = index
            self.id = id
            self.name = name
            self.queue = queue
            self.crashed = crashed
            self.attributed = attributed
            self.frames = frames
            self.registerFlavor = registerFlavor
            self.registers = registers
            self.rosettaRegisters = rosettaRegisters
        }
    }

    /// One frame of a backtrace.
    public struct Frame: Sendable, Equatable, Codable {
        /// The frame's position in its backtrace, as numbered in the report.
        public var index: Int
        /// The image (binary) name as written.
        public var image: String?
        /// The program counter (or return address) of the frame.
        public var address: HexValue?
        /// Offset of the address from its image's base, from the report or from the binary images.
        public var imageOffset: UInt64?
        /// The symbol name, if the report or symbolication gave one.
        public var symbol: String? {
            get { symbolText?.string(source) }
            set { symbolText = newValue.map(FrameText.text) }
        }
        /// Where ``symbol`` comes from: kept as a window on the report's bytes until it is read.
        var symbolText: FrameText?
        /// The symbol as the binary spells it (Swift or C++ mangled) when ``symbol`` shows it demangled: set by
        /// symbolication, so a reader can always get back to the name the linker saw.
        public var mangledSymbol: String?
        /// Bytes past the start of ``symbol`` (`+ 52`).
        public var symbolOffset: UInt64?
        /// The source file, if symbolication found one.
        public var file: String? {
            get { fileText?.string(source) }
            set { fileText = newValue.map(FrameText.text) }
        }
        /// Where ``file`` comes from: kept as a window on the report's bytes until it is read.
        var fileText: FrameText?
        /// The source line, when symbolication found one.
        public var line: Int?
        /// The source column, when symbolication found one.
        public var column: Int?
        /// True for JSON frames marked `inline` (several share one address).
        public var inlined: Bool?
        /// True when the image is one of the app's own (path inside the app bundle or the main executable).
        public var isAppFrame: Bool?
        /// The text line as written (text reports).
        public var raw: String? {
            get { rawLine?.string(source) }
            set { rawLine = newValue.map(FrameText.text) }
        }
        /// Where ``raw`` comes from: kept as a window on the report's bytes until it is read.
        var rawLine: FrameText?
        /// The report's bytes, which the windows of ``symbolText``, ``fileText`` and ``rawLine`` point into.
        var source: SharedText?

        package init(
            index: Int,
            image: String? = nil,
            address: HexValue? = nil,
            imageOffset: UInt64? = nil,
            symbol: String? = nil,
            symbolOffset: UInt64? = nil,
            file: String? = nil,
            line: Int? = nil,
            column: Int? = nil,
            inlined: Bool? = nil,
            isAppFrame: Bool? = nil,
            raw: String? = nil
        ) {
            self.index = index
            self.image = image
            self.address = address
            self.imageOffset = imageOffset
            self.symbolText = symbol.map(FrameText.text)
            self.symbolOffset = symbolOffset
            self.fileText = file.map(FrameText.text)
            self.line = line
            self.column = column
            self.inlined = inlined
            self.isAppFrame = isAppFrame
            self.rawLine = raw.map(FrameText.text)
        }

        /// Frames are equal when everything they say is: windows compare by the text they read to.
        public static func == (lhs: Frame, rhs: Frame) -> Bool {
            lhs.index == rhs.index && lhs.image == rhs.image && lhs.address == rhs.address
                && lhs.imageOffset == rhs.imageOffset && lhs.symbol == rhs.symbol
                && lhs.symbolOffset == rhs.symbolOffset && lhs.file == rhs.file && lhs.line == rhs.line
                && lhs.column == rhs.column && lhs.inlined == rhs.inlined && lhs.isAppFrame == rhs.isAppFrame
                && lhs.raw == rhs.raw && lhs.mangledSymbol == rhs.mangledSymbol
        }

        // Written out because ``raw``, ``symbol`` and ``file`` are computed: the keys and their optional handling are those the compiler
        // would synthesise for stored properties of these names.
        private enum CodingKeys: String, CodingKey {
            case index, image, address, imageOffset, symbol, symbolOffset, file, line, column, inlined, isAppFrame, raw
            case mangledSymbol
        }

        /// Reads the JSON form back, as `encode(to:)` writes it.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            index = try container.decode(Int.self, forKey: .index)
            image = try container.decodeIfPresent(String.self, forKey: .image)
            address = try container.decodeIfPresent(HexValue.self, forKey: .address)
            imageOffset = try container.decodeIfPresent(UInt64.self, forKey: .imageOffset)
            symbol = try container.decodeIfPresent(String.self, forKey: .symbol)
            symbolOffset = try container.decodeIfPresent(UInt64.self, forKey: .symbolOffset)
            file = try container.decodeIfPresent(String.self, forKey: .file)
            line = try container.decodeIfPresent(Int.self, forKey: .line)
            column = try container.decodeIfPresent(Int.self, forKey: .column)
            inlined = try container.decodeIfPresent(Bool.self, forKey: .inlined)
            isAppFrame = try container.decodeIfPresent(Bool.self, forKey: .isAppFrame)
            rawLine = try container.decodeIfPresent(String.self, forKey: .raw).map(FrameText.text)
            mangledSymbol = try container.decodeIfPresent(String.self, forKey: .mangledSymbol)
        }

        /// Writes the JSON form documented in docs/json-output.md.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encodeIfPresent(image, forKey: .image)
            try container.encodeIfPresent(address, forKey: .address)
            try container.encodeIfPresent(imageOffset, forKey: .imageOffset)
            try container.encodeIfPresent(symbol, forKey: .symbol)
            try container.encodeIfPresent(symbolOffset, forKey: .symbolOffset)
            try container.encodeIfPresent(file, forKey: .file)
            try container.encodeIfPresent(line, forKey: .line)
            try container.encodeIfPresent(column, forKey: .column)
            try container.encodeIfPresent(inlined, forKey: .inlined)
            try container.encodeIfPresent(isAppFrame, forKey: .isAppFrame)
            try container.encodeIfPresent(raw, forKey: .raw)
            try container.encodeIfPresent(mangledSymbol, forKey: .mangledSymbol)
        }
    }

    /// A register of the crashed thread's state.
    public struct Register: Sendable, Equatable, Codable {
        /// The register's name (`pc`, `x0`, `rip` …).
        public var name: String
        /// The register's value.
        public var value: HexValue
        /// `(Data Abort) byte write Translation fault`, a symbol, or text after the value.
        public var description: String?

        package init(name: String, value: HexValue, description: String? = nil) {
            self.name = name
            self.value = value
            self.description = description
        }
    }

    /// A loaded binary: where it was mapped and which build it was.
    public struct BinaryImage: Sendable, Equatable, Codable {
        /// The image's name (the binary's file name).
        public var name: String?
        /// The load address: frame addresses minus it give the offsets dSYMs are indexed by.
        public var base: HexValue
        /// The last byte of the image (inclusive).
        public var end: HexValue?
        /// 32 lower-case hex digits, no dashes.
        package var uuid: String? {
            get { uuidText?.string }
            set { uuidText = newValue.map(LazyText.text) }
        }
        /// Where ``uuid`` comes from: kept as a window on the report's bytes, normalised when it is read.
        var uuidText: LazyText?
        /// The architecture slice that was loaded (`arm64`, `arm64e`, `x86_64`).
        public var arch: String?
        /// The image's path on the device.
        public var path: String? {
            get { pathText?.string }
            set { pathText = newValue.map(LazyText.text) }
        }
        /// Where ``path`` comes from: kept as a window on the report's bytes until it is read.
        var pathText: LazyText?
        /// The image's `CFBundleShortVersionString`, when it is a bundle.
        public var version: String?
        /// The image's bundle identifier, when it is a bundle.
        public var bundleId: String?
        /// The JSON `CFBundleVersion` (the build), beside ``version`` (`CFBundleShortVersionString`).
        public var bundleVersion: String?
        /// True for the app's own images (`+` marker, JSON source `P` inside the app bundle, or the main executable).
        public var isApp: Bool
        /// The JSON `source`: `P` process, `S` shared cache, `A` absolute, and others.
        public var source: String?

        package init(
            name: String? = nil,
            base: HexValue,
            end: HexValue? = nil,
            uuid: String? = nil,
            arch: String? = nil,
            path: String? = nil,
            version: String? = nil,
            bundleId: String? = nil,
            bundleVersion: String? = nil,
            isApp: Bool = false,
            source: String? = nil
        ) {
            self.name = name
            self.base = base
            self.end = end
            self.uuidText = uuid.map(LazyText.text)
            self.arch = arch
            self.pathText = path.map(LazyText.text)
            self.version = version
            self.bundleId = bundleId
            self.bundleVersion = bundleVersion
            self.isApp = isApp
            self.source = source
        }

        // Written out because ``uuid`` and ``path`` are computed: the keys and their optional handling are those the compiler
        // would synthesise for stored properties of these names.
        private enum CodingKeys: String, CodingKey {
            case name, base, end, uuid, arch, path, version, bundleId, bundleVersion, isApp, source
        }

        /// Reads the JSON form back, as `encode(to:)` writes it.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            base = try container.decode(HexValue.self, forKey: .base)
            end = try container.decodeIfPresent(HexValue.self, forKey: .end)
            uuidText = try container.decodeIfPresent(String.self, forKey: .uuid).map(LazyText.text)
            arch = try container.decodeIfPresent(String.self, forKey: .arch)
            pathText = try container.decodeIfPresent(String.self, forKey: .path).map(LazyText.text)
            version = try container.decodeIfPresent(String.self, forKey: .version)
            bundleId = try container.decodeIfPresent(String.self, forKey: .bundleId)
            bundleVersion = try container.decodeIfPresent(String.self, forKey: .bundleVersion)
            isApp = try container.decode(Bool.self, forKey: .isApp)
            source = try container.decodeIfPresent(String.self, forKey: .source)
        }

        /// Writes the JSON form documented in docs/json-output.md.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(name, forKey: .name)
            try container.encode(base, forKey: .base)
            try container.encodeIfPresent(end, forKey: .end)
            try container.encodeIfPresent(uuid, forKey: .uuid)
            try container.encodeIfPresent(arch, forKey: .arch)
            try container.encodeIfPresent(path, forKey: .path)
            try container.encodeIfPresent(version, forKey: .version)
            try container.encodeIfPresent(bundleId, forKey: .bundleId)
            try container.encodeIfPresent(bundleVersion, forKey: .bundleVersion)
            try container.encode(isApp, forKey: .isApp)
            try container.encodeIfPresent(source, forKey: .source)
        }
    }
}
