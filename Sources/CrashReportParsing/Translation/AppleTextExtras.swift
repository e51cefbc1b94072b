import APMInspectCore

/// The parts of a bug_type 309 body that Apple's text translation prints but the model does not carry.
///
/// Read from the JSON next to the model: which image each frame belongs to, the instruction stream bytes,
/// the Application Specific Information strings per image, and the raw multi-line strings (`vmSummary`,
/// `ktriageinfo`) whose blank lines the model's blocks drop.
package struct AppleTextExtras: Sendable, Equatable {
    /// The bytes around the PC of one thread (`instructionState.instructionStream`).
    package struct InstructionStream: Sendable, Equatable {
        package var bytes: [UInt8]
        /// Index in ``bytes`` of the byte at the PC.
        package var offset: Int

        package init(bytes: [UInt8], offset: Int) {
            self.bytes = bytes
            self.offset = offset
        }
    }

    /// `imageIndex` of each frame, by thread index then frame index.
    package var frameImages: [[Int?]]
    /// `imageIndex` of each `lastExceptionBacktrace` frame.
    package var lastExceptionImages: [Int?]
    /// Instruction streams by thread index.
    package var instructionStreams: [Int: InstructionStream]
    /// The `asi` strings, without the image names the model prefixes.
    package var applicationSpecificInformation: [String]?
    /// `ktriageinfo` as written.
    package var kernelTriage: String?
    /// `vmSummary` as written.
    package var vmSummary: String?
    /// `vmregioninfo` as written.
    package var vmRegionInfo: String?
    /// `bundleInfo.DTAppStoreToolsBuild`.
    package var appStoreToolsBuild: String?
    /// `storeInfo.applicationVariant`.
    package var appVariant: String?
    /// `storeInfo.itemID` (macOS `App Item ID:`).
    package var itemID: String?
    /// `storeInfo.softwareVersionExternalIdentifier` (macOS `App External ID:`).
    package var externalID: String?
    /// `osVersion.isEmbedded`.
    package var isEmbedded: Bool?

    package init(
        frameImages: [[Int?]] = [],
        lastExceptionImages: [Int?] = [],
        instructionStreams: [Int: InstructionStream] = [:],
        applicationSpecificInformation: [String]? = nil,
        kernelTriage: String? = nil,
        vmSummary: String? = nil,
        vmRegionInfo: String? = nil,
        appStoreToolsBuild: String? = nil,
        appVariant: String? = nil,
        isEmbedded: Bool? = nil
    ) {
        self.frameImages = frameImages
        self.lastExceptionImages = lastExceptionImages
        self.instructionStreams = instructionStreams
        self.applicationSpecificInformation = applicationSpecificInformation
        self.kernelTriage = kernelTriage
        self.vmSummary = vmSummary
        self.vmRegionInfo = vmRegionInfo
        self.appStoreToolsBuild = appStoreToolsBuild
        self.appVariant = appVariant
        self.isEmbedded = isEmbedded
    }

    /// Reads the extras from a 309 JSON body object.
    package init(body: JSONElement) {
        self.init(body: CrashJSONBody(body))
    }

    /// Reads the extras from a 309 JSON body, whole or in pieces (see ``CrashJSONBody``).
    init(body: CrashJSONBody) {
        self.init()
        for thread in body.member("threads")?.elements.map({ $0 }) ?? [] {
            let frames = thread.member("frames")?.elements.map { $0 } ?? []
            frameImages.append(frames.map { $0.member("imageIndex")?.int64.map(Int.init) })
            if let stream = thread.member("instructionState")?.member("instructionStream"),
                let list = stream.member("bytes"), list.kind == .array
            {
                let bytes = list.elements.compactMap { $0.uint64.flatMap { UInt8(exactly: $0) } }
                let offset = stream.member("offset")?.int64.map(Int.init) ?? -1
                instructionStreams[frameImages.count - 1] = InstructionStream(bytes: bytes, offset: offset)
            }
        }
        let leb = body.member("lastExceptionBacktrace")?.elements.map { $0 } ?? []
        lastExceptionImages = leb.map { $0.member("imageIndex")?.int64.map(Int.init) }
        if let asi = body.member("asi"), asi.kind == .object {
            var lines: [String] = []
            asi.forEachMember { _, value in
                if let single = value.string { lines.append(single) } else { lines += value.strings }
            }
            applicationSpecificInformation = lines
        }
        kernelTriage = body.member("ktriageinfo")?.string
        vmSummary = body.member("vmSummary")?.string
        vmRegionInfo = (body.member("vmregioninfo") ?? body.member("vmRegionInfo"))?.string
        appStoreToolsBuild = body.member("bundleInfo")?.member("DTAppStoreToolsBuild")?.string
        let store = body.member("storeInfo")
        appVariant = store?.member("applicationVariant")?.string
        itemID = (store?.member("itemID")).flatMap { $0.string ?? $0.rawText }
        externalID = (store?.member("softwareVersionExternalIdentifier")).flatMap { $0.string ?? $0.rawText }
        isEmbedded = body.member("osVersion")?.member("isEmbedded").flatMap { $0.bool ?? $0.int64.map { $0 != 0 } }
    }
}
