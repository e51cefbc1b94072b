import APMInspectCore
import CrashReportParsing

extension FleetEvent {
    /// A frame as the report's stack groups (resource kills, hangs) name it, whatever report it came from.
    package struct NamedFrame: Sendable, Equatable {
        package var image: String?
        package var symbol: String?
        /// `Nightjar + 1297112`: the name when there is no symbol.
        package var imageAndOffset: String
        package var isApp: Bool

        package init(image: String?, symbol: String?, imageAndOffset: String, isApp: Bool) {
            self.image = image
            self.symbol = symbol
            self.imageAndOffset = imageAndOffset
            self.isApp = isApp
        }

        /// A crash report's frame: `isApp` when the reader marked it the app's, or when its image is `process`.
        package init(_ frame: CrashReport.Frame, process: String?) {
            let name = frame.image ?? "???"
            let offset = frame.imageOffset.map { "\(name) + \($0)" } ?? frame.address.map { "\(name) \($0)" } ?? name
            self.init(
                image: frame.image,
                symbol: frame.symbol,
                imageAndOffset: offset,
                isApp: frame.isAppFrame == true || Self.isProcessImage(frame.image, process: process)
            )
        }

        /// A sampled frame of a resource report: the app's when its image is the process (or at a path ending in it).
        package init(_ frame: SampledFrame, process: String?) {
            self.init(
                image: frame.image,
                symbol: frame.symbol,
                imageAndOffset: frame.imageAndOffset,
                isApp: Self.isProcessImage(frame.image, process: process)
            )
        }

        static func isProcessImage(_ image: String?, process: String?) -> Bool {
            guard let process, !process.isEmpty, let image else { return false }
            return image == process || image.hasSuffix("/" + process)
        }

        /// By its symbol when the report has one (`` Nightjar`-[NJTileRenderer renderTile:] ``), else by image
        /// and offset: symbolicated reports of one build name a frame the same way from every source.
        package var name: String {
            if let symbol, !symbol.isEmpty, symbol != "???" { return image.map { "\($0)`\(symbol)" } ?? symbol }
            return imageAndOffset
        }
    }

    /// The frames a stack group is named by: from the innermost frame of the app's own code (the innermost frames
    /// when the stack has none of the app), at most ``maxResourceFrames``; `["?"]` for an empty stack.
    ///
    /// The one naming of a group's stack, shared by the resource-kill groups and the hang groups, so that the same
    /// stack names the same group in both.
    package static func groupFrames(innermostFirst frames: [NamedFrame]) -> [String] {
        let appStart = frames.firstIndex { $0.isApp } ?? 0
        let names = frames[appStart...].prefix(maxResourceFrames).map(\.name)
        return names.isEmpty ? ["?"] : Array(names)
    }
}
