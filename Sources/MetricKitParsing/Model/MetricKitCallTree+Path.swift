extension MetricKitCallTree {
    /// ``heaviestPath`` within one stack, from its root frame with the most samples (the first on a tie).
    ///
    /// A tree per thread needs the blamed thread's path, which the heaviest over all threads need not be.
    package func heaviestPath(ofStack index: Int) -> [Int] {
        guard let stack = stacks.first(where: { $0.index == index }) else { return [] }
        var best: Int?
        for root in stack.rootFrames where frames.indices.contains(root) {
            if best.map({ frames[$0].totalSamples < frames[root].totalSamples }) ?? true { best = root }
        }
        var heaviestChild = [Int?](repeating: nil, count: frames.count)
        for (id, frame) in frames.enumerated() {
            guard let parent = frame.parent, heaviestChild.indices.contains(parent) else { continue }
            if let current = heaviestChild[parent], frames[current].totalSamples >= frame.totalSamples { continue }
            heaviestChild[parent] = id
        }
        var path: [Int] = []
        var cursor = best
        while let id = cursor, path.count < frames.count {
            path.append(id)
            cursor = heaviestChild[id]
        }
        return path
    }
}
