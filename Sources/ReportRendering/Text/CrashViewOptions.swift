/// How much of a crash report the text view shows: `inspect`'s `--threads`, `--frames`, `--images` and
/// `--registers`.
///
/// The default is the summary the view has always printed (the crashed thread, 12 frames), so a person asks for
/// more, as Console.app shows it, without switching to JSON.
package struct CrashViewOptions: Sendable, Equatable {
    /// Which threads' backtraces are shown.
    package enum Threads: String, CaseIterable, Sendable {
        /// The crashed (or attributed) thread only.
        case crashed
        /// Every thread, in the report's order, the crashed one marked as before.
        case all
    }

    /// `--frames N`: a count of frames per backtrace, nil for every frame (the executable parses `0` and `all` to
    /// nil, in `CrashViewOptions+Argument.swift`).
    package struct FrameLimit: Sendable, Equatable {
        /// Nil for no limit.
        package var count: Int?

        package init(count: Int?) { self.count = count }
    }

    package var threads: Threads
    /// Frames shown per backtrace (the crashed thread's and the last exception backtrace), nil for all.
    package var frameLimit: Int?
    /// Shows the binary images, as Apple lays them out.
    package var images: Bool
    /// Shows the crashed thread's registers.
    package var registers: Bool

    /// Today's view: the crashed thread's first 12 frames.
    package static let standard = CrashViewOptions()

    package init(threads: Threads = .crashed, frameLimit: Int? = 12, images: Bool = false, registers: Bool = false) {
        self.threads = threads
        self.frameLimit = frameLimit
        self.images = images
        self.registers = registers
    }
}
