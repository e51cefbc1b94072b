/// One thread's call tree as spindump prints it (each frame indented under its caller, with the samples that had
/// it), kept only long enough to take its heaviest path.
///
/// A thread's heaviest path is what a crash report's backtrace would be: the frames most samples shared, from the
/// thread's root to the leaf, choosing the child with the most samples at each level (the first on a tie, as
/// spindump lists the heavier first).
struct SpindumpCallTree {
    private struct Node {
        var frame: SpindumpLine.Frame
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
    }

    private var nodes: [Node] = []
    /// The open path from the root: each node's index and its indent.
    private var open: [(node: Int, indent: Int)] = []
    private var firstRoot = -1
    private var lastRoot = -1
    /// Nodes the tree held no more of.
    private(set) var skipped = 0
    let maxNodes: Int

    init(maxNodes: Int) {
        self.maxNodes = maxNodes
    }

    var isEmpty: Bool { nodes.isEmpty }

    /// Adds the next line's frame under the last frame indented less than it.
    mutating func add(_ frame: SpindumpLine.Frame) {
        guard nodes.count < maxNodes else {
            skipped += 1
            return
        }
        while let last = open.last, last.indent >= frame.indent { open.removeLast() }
        let index = nodes.count
        nodes.append(Node(frame: frame))
        if let parent = open.last?.node {
            if nodes[parent].lastChild >= 0 {
                nodes[nodes[parent].lastChild].nextSibling = index
            } else {
                nodes[parent].firstChild = index
            }
            nodes[parent].lastChild = index
        } else {
            if lastRoot >= 0 { nodes[lastRoot].nextSibling = index } else { firstRoot = index }
            lastRoot = index
        }
        open.append((index, frame.indent))
    }

    /// The heaviest path, root first.
    func heaviestPath() -> [SpindumpLine.Frame] {
        var path: [SpindumpLine.Frame] = []
        var candidate = firstRoot
        while candidate >= 0 {
            var best = candidate
            var sibling = nodes[candidate].nextSibling
            while sibling >= 0 {
                if nodes[sibling].frame.count > nodes[best].frame.count { best = sibling }
                sibling = nodes[sibling].nextSibling
            }
            path.append(nodes[best].frame)
            candidate = nodes[best].firstChild
        }
        return path
    }
}
