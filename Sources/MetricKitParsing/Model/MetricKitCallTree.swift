import APMInspectCore

/// An `MXCallStackTree`: sampled call stacks, per thread (crashes, hangs, launches) or aggregated over the whole
/// process (CPU and disk-write exceptions).
///
/// The tree is inverted, as in every payload seen: a root frame is the frame that was executing (the top of the
/// stack), and its `subFrames` are its callers. A crash thread reads from a root down its single chain of callers;
/// in a sampled tree a root's `sampleCount` is the samples in which it was executing.
///
/// Frames are kept as a flat list in depth-first order with a ``Frame/parent`` index, so that a tree hundreds of
/// frames deep is read, summarised and encoded without recursion.
package struct MetricKitCallTree: Sendable, Equatable, Codable {
    /// One frame of the tree: a return address in a binary, and the samples in which it was on the stack.
    package struct Frame: Sendable, Equatable, Codable {
        /// Index of this frame in ``MetricKitCallTree/frames``.
        package var id: Int
        /// Index of the frame this one called (its `subFrames` parent), nil for a root (`callStackRootFrames`).
        package var parent: Int?
        /// Index into ``MetricKitCallTree/stacks`` of the call stack the frame belongs to.
        package var stack: Int
        /// Distance from the root frame (0 for a root).
        package var depth: Int
        package var binaryName: String?
        /// As written (upper-case, dashed).
        package var binaryUUID: String?
        package var address: HexValue?
        /// `offsetIntoBinaryTextSegment` as written.
        package var offsetIntoBinaryTextSegment: UInt64?
        /// The binary's load address: `address - offsetIntoBinaryTextSegment`, or the written value itself for
        /// payloads that put the load address in that field (iOS 14.0).
        package var loadAddress: HexValue?
        /// `address - loadAddress`: where the frame is in its binary, what symbolication needs.
        package var imageOffset: UInt64?
        /// `sampleCount` as written: samples in which the path from the root to this frame was on the stack.
        package var sampleCount: Int?
        /// Samples in which this frame was the one executing: ``totalSamples`` for a root, 0 for a caller.
        package var selfSamples: Int
        /// `sampleCount`, or its callers' total when it is absent.
        package var totalSamples: Int
        /// Samples whose known stack ends at this frame (``totalSamples`` minus its callers', at least 0): the
        /// weight of the whole stack from the root to here, as folded stacks count it.
        package var endSamples: Int
        /// What App Store Connect's symbolicated frames add; MetricKit payloads carry none of them.
        ///
        /// A `DiagnosticLogCallStackNode` has the symbol, source file and line Apple's servers resolved,
        /// `isBlameFrame` (the frame the signature blames) and `rawFrame`, the frame as a line of text.
        package var symbolName: String?
        package var fileName: String?
        package var lineNumber: Int64?
        package var isBlameFrame: Bool?
        package var rawFrame: String?
        /// Frame keys this reader does not model, and modelled ones whose value it cannot hold (an address beyond
        /// 64 bits), verbatim.
        package var unknownKeys: JSONValue?

        package init(id: Int, parent: Int?, stack: Int, depth: Int) {
            self.id = id
            self.parent = parent
            self.stack = stack
            self.depth = depth
            self.selfSamples = 0
            self.totalSamples = 0
            self.endSamples = 0
        }
    }

    /// One entry of `callStacks`.
    package struct Stack: Sendable, Equatable, Codable {
        package var index: Int
        /// `threadAttributed`: the thread the diagnostic blames (the crashed or hung thread).
        package var threadAttributed: Bool?
        /// Indexes into ``MetricKitCallTree/frames`` of this stack's root frames.
        package var rootFrames: [Int]
        /// Samples over the stack's root frames.
        package var totalSamples: Int
        package var unknownKeys: JSONValue?

        package init(index: Int, threadAttributed: Bool? = nil, rootFrames: [Int] = [], totalSamples: Int = 0) {
            self.index = index
            self.threadAttributed = threadAttributed
            self.rootFrames = rootFrames
            self.totalSamples = totalSamples
        }
    }

    /// `callStackPerThread`.
    package var perThread: Bool?
    package var stacks: [Stack]
    package var frames: [Frame]
    /// Samples over every root frame of every stack.
    package var totalSamples: Int
    /// From the root frame with the most samples, the heaviest caller at each level: where the time went and
    /// how it was reached.
    package var heaviestPath: [Int]
    /// Tree keys this reader does not model, verbatim.
    package var unknownKeys: JSONValue?

    package init(perThread: Bool? = nil, stacks: [Stack] = [], frames: [Frame] = []) {
        self.perThread = perThread
        self.stacks = stacks
        self.frames = frames
        self.totalSamples = 0
        self.heaviestPath = []
    }

    /// `binaryName+0xoffset` (or the address, or `?`) for a frame, the way the text view and folded stacks name it.
    package func label(of index: Int) -> String {
        guard frames.indices.contains(index) else { return "?" }
        let frame = frames[index]
        let name = frame.binaryName ?? frame.binaryUUID ?? "?"
        // A frame App Store Connect symbolicated is named as lldb names one: binary`symbol.
        if let symbol = frame.symbolName, !symbol.isEmpty { return name + "`" + symbol }
        if let offset = frame.imageOffset { return name + "+0x" + String(offset, radix: 16) }
        if let address = frame.address { return "\(name)@\(address)" }
        return name
    }
}
