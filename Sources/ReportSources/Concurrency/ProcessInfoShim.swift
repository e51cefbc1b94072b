import Foundation

/// Machine facts the CLI needs for defaults.
package enum ProcessInfoShim {
    package static var activeProcessorCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
