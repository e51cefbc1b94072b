import Foundation

/// Machine facts the CLI needs for defaults.
enum ProcessInfoShim {
    static var activeProcessorCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
