import ArgumentParser

/// How much of a crash report the text view shows: `inspect`'s `--threads`, `--frames`, `--images` and
/// `--registers`.
///
/// The default is the summary the view has always printed (the crashed thread, 12 frames), so a person asks for
/// more, as Console.app shows it, without switching to JSON.
struct CrashViewOptions: Sendable, Equatable {
    /// Which threads' backtraces are shown.
    enum Threads: String, CaseIterable, Sendable, ExpressibleByArgument {
        /// The crashed (or attributed) thread only.
        case crashed
        /// Every thread, in the report's order, the crashed one marked as before.
        case all
    }

    /// `--frames N`: a count of frames per backtrace, `0` or `all` for every frame.
    struct FrameLimit: Sendable, Equatable, ExpressibleByArgument {
        /// Nil for no limit.
        var count: Int?

        init(count: Int?) { self.count = count }

        init?(argument: String) {
            if argument == "all" {
                count = nil
            } else if let value = Int(argument), value >= 0 {
                count = value == 0 ? nil : value
            } else {
                return nil
            }
        }

        var defaultValueDescription: String { count.map(String.init) ?? "all" }
    }

    var threads: Threads = .crashed
    /// Frames shown per backtrace (the crashed thread's and the last exception backtrace), nil for all.
    var frameLimit: Int? = 12
    /// Shows the binary images, as Apple lays them out.
    var images = false
    /// Shows the crashed thread's registers.
    var registers = false

    /// Today's view: the crashed thread's first 12 frames.
    static let standard = CrashViewOptions()
}
