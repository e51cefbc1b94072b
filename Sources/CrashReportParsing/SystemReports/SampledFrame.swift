import APMInspectCore

/// One frame of a system report's stack: an image and an offset into it, which is what symbolication needs.
///
/// A system watchdog's stackshot gives the image as an index into its image list; a microstackshot text report
/// gives the image's name and a sample count. Whatever the report did not say stays nil.
package struct SampledFrame: Sendable, Equatable, Encodable {
    /// The index into the report's image list (409), when the frame gave one.
    package var imageIndex: Int?
    /// The image's name (or path), from the image list or the frame's text.
    package var image: String?
    /// The image's UUID, when the image list has it.
    package var imageUUID: String?
    /// The offset of the instruction from the image's load address.
    package var imageOffset: UInt64?
    /// The absolute address, when the report printed it.
    package var address: HexValue?
    /// The symbol the report printed (`???` when unsymbolicated).
    package var symbol: String?
    /// How many samples had this frame (microstackshots).
    package var sampleCount: Int?

    package init(
        imageIndex: Int? = nil,
        image: String? = nil,
        imageUUID: String? = nil,
        imageOffset: UInt64? = nil,
        address: HexValue? = nil,
        symbol: String? = nil,
        sampleCount: Int? = nil
    ) {
        self.imageIndex = imageIndex
        self.image = image
        self.imageUUID = imageUUID
        self.imageOffset = imageOffset
        self.address = address
        self.symbol = symbol
        self.sampleCount = sampleCount
    }

    /// `image + offset`, the way Apple's reports print an unsymbolicated frame.
    package var imageAndOffset: String {
        let name = image ?? imageIndex.map { "image #\($0)" } ?? "???"
        guard let imageOffset else { return name }
        return "\(name) + \(imageOffset)"
    }
}
