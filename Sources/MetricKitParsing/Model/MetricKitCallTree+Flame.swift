extension MetricKitCallTree {
    /// The tree with its outermost callers at the root (see ``MetricKitFlameTree``), for the stacks whose
    /// ``Stack/index`` is in `stacks` (nil: every stack).
    ///
    /// Each stack end (``Frame/endSamples``) is folded from its outermost caller to the executing frame, and frames
    /// with the same label under the same caller are merged, as flame-graph tools merge folded stacks. The numbers
    /// hold by construction: a frame's total is the sum of the stacks through it, so its callees' totals never
    /// exceed it and its self samples are the difference. Frames under `minimumShare` of the samples, deeper than
    /// `maxDepth`, or past `maxLines` lines are counted instead of listed; folding stops after `frameBudget`
    /// frames (a chain where every frame ends a stack costs its depth squared).
    package func flameTree(
        stacks: Set<Int>? = nil,
        minimumShare: Double = 0.02,
        maxDepth: Int = 48,
        maxLines: Int = 120,
        frameBudget: Int = 500_000
    ) -> MetricKitFlameTree {
        struct Node {
            var frame: Int
            var parent: Int
            var depth: Int
            var total = 0
            var children: [String: Int] = [:]
        }
        func adding(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }
        var labels = [String?](repeating: nil, count: frames.count)
        func cachedLabel(_ id: Int) -> String {
            if let known = labels[id] { return known }
            let text = label(of: id)
            labels[id] = text
            return text
        }
        // Node 0 stands above the outermost callers; every other node's parent comes before it.
        var nodes = [Node(frame: -1, parent: -1, depth: -1)]
        var budget = max(0, frameBudget)
        var complete = true
        var path: [Int] = []
        for (index, frame) in frames.enumerated() where frame.endSamples > 0 {
            if let stacks, !stacks.contains(frame.stack) { continue }
            path.removeAll(keepingCapacity: true)
            var cursor: Int? = index
            // The chain up to the root, outermost caller first; bounded by the frame count against a cycle.
            while let id = cursor, frames.indices.contains(id), path.count < frames.count {
                path.append(id)
                cursor = frames[id].parent
            }
            guard path.count <= budget else {
                complete = false
                break
            }
            budget -= path.count
            var node = 0
            nodes[0].total = adding(nodes[0].total, frame.endSamples)
            for id in path {
                let key = cachedLabel(id)
                if let child = nodes[node].children[key] {
                    node = child
                } else {
                    let child = nodes.count
                    nodes.append(Node(frame: id, parent: node, depth: nodes[node].depth + 1))
                    nodes[node].children[key] = child
                    node = child
                }
                nodes[node].total = adding(nodes[node].total, frame.endSamples)
            }
        }
        // Subtree sizes and callee totals, children before parents (a child's index is above its parent's).
        var sizes = [Int](repeating: 1, count: nodes.count)
        var childTotals = [Int](repeating: 0, count: nodes.count)
        for id in stride(from: nodes.count - 1, to: 0, by: -1) {
            let parent = nodes[id].parent
            guard nodes.indices.contains(parent) else { continue }
            sizes[parent] = adding(sizes[parent], sizes[id])
            childTotals[parent] = adding(childTotals[parent], nodes[id].total)
        }
        let total = nodes[0].total
        let share = minimumShare.isFinite ? min(max(minimumShare, 0), 1) : 0
        let threshold = Double(total) * share
        var result = MetricKitFlameTree(totalSamples: total, minimumShare: share, isComplete: complete)

        enum Pending {
            case node(Int)
            case cut(MetricKitFlameTree.Line)
        }
        func sortedChildren(_ id: Int) -> [Int] {
            nodes[id].children.values.sorted { a, b in
                nodes[a].total != nodes[b].total
                    ? nodes[a].total > nodes[b].total : cachedLabel(nodes[a].frame) < cachedLabel(nodes[b].frame)
            }
        }
        var pending: [Pending] = []
        func expand(_ id: Int) {
            let children = sortedChildren(id)
            guard !children.isEmpty else { return }
            let depth = nodes[id].depth + 1
            let hidden = { (ids: ArraySlice<Int>) in ids.reduce(0) { adding($0, sizes[$1]) } }
            let samples = { (ids: ArraySlice<Int>) in ids.reduce(0) { adding($0, nodes[$1].total) } }
            guard depth < max(1, maxDepth) else {
                let all = children[...]
                pending.append(
                    .cut(
                        MetricKitFlameTree.Line(
                            kind: .tooDeep,
                            depth: depth,
                            frame: nil,
                            label: "",
                            totalSamples: samples(all),
                            selfSamples: 0,
                            hiddenFrames: hidden(all)
                        )
                    )
                )
                return
            }
            // Sorted heaviest first, so what is kept is a prefix.
            let keptCount = children.prefix { Double(nodes[$0].total) >= threshold && nodes[$0].total > 0 }.count
            let dropped = children[keptCount...]
            if !dropped.isEmpty {
                pending.append(
                    .cut(
                        MetricKitFlameTree.Line(
                            kind: .belowShare,
                            depth: depth,
                            frame: nil,
                            label: "",
                            totalSamples: samples(dropped),
                            selfSamples: 0,
                            hiddenFrames: hidden(dropped)
                        )
                    )
                )
            }
            for child in children[..<keptCount].reversed() { pending.append(.node(child)) }
        }
        expand(0)
        var listed = 0
        var hiddenByCuts = 0
        let lineCap = max(1, maxLines)
        while let next = pending.popLast(), result.lines.count < lineCap {
            switch next {
            case .cut(let line):
                hiddenByCuts = adding(hiddenByCuts, line.hiddenFrames)
                result.lines.append(line)
            case .node(let id):
                let node = nodes[id]
                listed += 1
                result.lines.append(
                    MetricKitFlameTree.Line(
                        kind: .frame,
                        depth: node.depth,
                        frame: node.frame,
                        label: cachedLabel(node.frame),
                        totalSamples: node.total,
                        selfSamples: max(0, node.total - childTotals[id])
                    )
                )
                expand(id)
            }
        }
        result.framesPastLineCap = max(0, nodes.count - 1 - listed - hiddenByCuts)
        return result
    }
}
