import APMInspectCore
import Synchronization

/// Lines and columns of byte offsets in a HAR file read a window at a time, as `JSONDocument/location(ofByte:)`
/// gives them for the whole text.
///
/// The whole-text reader finds line starts only when a diagnostic needs one; so does this: line feeds are counted
/// from the last place asked (or the nearest mark before it), reading the file again, so a clean file costs nothing
/// and a file with findings costs one more read of the part before the last of them.
final class HARFileLines: Sendable {
    private struct Mark {
        var offset = 0
        var line = 1
        var lineStart = 0
    }

    private struct State {
        var cursor = Mark()
        /// A mark every ``HARFileLines/markSpacing`` bytes counted, for a finding before the cursor.
        var marks = [Mark()]
    }

    private static let markSpacing = 1 << 20
    private let file: HARFile
    private let state = Mutex(State())

    init(file: HARFile) {
        self.file = file
    }

    /// The location of byte `offset` of the file.
    func location(ofByte offset: Int, keyPath: String? = nil) -> SourceLocation {
        let target = max(0, min(offset, file.size))
        let mark = state.withLock { state in
            var at = state.cursor
            if target < at.offset {
                at = state.marks.last(where: { $0.offset <= target }) ?? Mark()
            }
            while at.offset < target {
                let chunk = file.read(at: at.offset, count: min(Self.markSpacing, target - at.offset))
                guard !chunk.isEmpty else { break }
                let feeds = JSONContainerSkipping.lineFeeds(in: chunk, 0..<chunk.count)
                if let last = feeds.last { at.lineStart = at.offset + last + 1 }
                at.line += feeds.count
                at.offset += chunk.count
                if let previous = state.marks.last, at.offset - previous.offset >= Self.markSpacing {
                    state.marks.append(at)
                }
            }
            state.cursor = at
            return at
        }
        return SourceLocation(
            byteOffset: target,
            line: mark.line,
            column: target - mark.lineStart + 1,
            keyPath: keyPath
        )
    }
}
