/// A sampled call-stack tree turned the right way up for reading as a flame graph in text: outermost callers at
/// the root, the frames they called nested below, each with its total and self samples.
///
/// MetricKit writes the tree inverted (the executing frame first, its callers below), which answers "what was on
/// top of the stack" but hides which caller the time went through. Folding each stack from its outermost caller
/// and merging equal frames gives the view people draw flame graphs for. The tree is pruned for a terminal: frames
/// under a share of the samples, past a depth or past a line count are counted, not listed, so a hostile tree
/// thousands of frames wide or deep still gives a short view. Built by ``MetricKitCallTree/flameTree(stacks:minimumShare:maxDepth:maxLines:frameBudget:)``.
package struct MetricKitFlameTree: Sendable, Equatable, Codable {
    /// One line of the view, in the order to print it (each frame before its callees, heaviest callee first).
    package struct Line: Sendable, Equatable, Codable {
        package enum Kind: String, Sendable, Equatable, Codable {
            /// A frame, with its samples.
            case frame
            /// Callees left out because each had less than ``MetricKitFlameTree/minimumShare`` of the samples.
            case belowShare
            /// Callees left out because they are deeper than the depth cap.
            case tooDeep
        }

        package var kind: Kind
        /// Nesting level: 0 for an outermost caller.
        package var depth: Int
        /// A frame of the call tree this line stands for (``MetricKitCallTree/frames`` index), nil for a cut line.
        package var frame: Int?
        /// `binaryName+0xoffset`, as ``MetricKitCallTree/label(of:)`` names it; empty for a cut line.
        package var label: String
        /// Samples in which this frame was on the stack (for a cut line: the samples of what was left out).
        package var totalSamples: Int
        /// Samples in which this frame was the executing one: its total less its callees' totals.
        package var selfSamples: Int
        /// Frames left out, counting every frame below them (cut lines only; 0 for a frame).
        package var hiddenFrames: Int

        package init(
            kind: Kind,
            depth: Int,
            frame: Int?,
            label: String,
            totalSamples: Int,
            selfSamples: Int,
            hiddenFrames: Int = 0
        ) {
            self.kind = kind
            self.depth = depth
            self.frame = frame
            self.label = label
            self.totalSamples = totalSamples
            self.selfSamples = selfSamples
            self.hiddenFrames = hiddenFrames
        }
    }

    /// Samples over every stack folded in: the 100 % of the percentages.
    package var totalSamples: Int
    package var lines: [Line]
    /// The share of ``totalSamples`` under which a frame is counted in a cut line instead of listed.
    package var minimumShare: Double
    /// Frames left out once the line cap was reached (with everything below them).
    package var framesPastLineCap: Int
    /// False when the frame budget ran out while folding: the numbers then cover only the stacks folded.
    package var isComplete: Bool

    package init(
        totalSamples: Int = 0,
        lines: [Line] = [],
        minimumShare: Double = 0,
        framesPastLineCap: Int = 0,
        isComplete: Bool = true
    ) {
        self.totalSamples = totalSamples
        self.lines = lines
        self.minimumShare = minimumShare
        self.framesPastLineCap = framesPastLineCap
        self.isComplete = isComplete
    }

    /// `part` as a percentage of ``totalSamples`` (0 when there are no samples).
    package func percent(_ part: Int) -> Double {
        totalSamples > 0 ? Double(part) / Double(totalSamples) * 100 : 0
    }
}
