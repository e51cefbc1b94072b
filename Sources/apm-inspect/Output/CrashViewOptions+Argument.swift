import ArgumentParser
import ReportRendering

// `inspect --threads crashed|all`.
extension CrashViewOptions.Threads: ExpressibleByArgument {}

extension CrashViewOptions.FrameLimit: ExpressibleByArgument {
    /// `--frames N`: `0` and `all` both mean every frame; a negative or non-numeric value is a usage error.
    package init?(argument: String) {
        if argument == "all" {
            self.init(count: nil)
        } else if let value = Int(argument), value >= 0 {
            self.init(count: value == 0 ? nil : value)
        } else {
            return nil
        }
    }

    package var defaultValueDescription: String { count.map(String.init) ?? "all" }
}
