extension MetricKitCallTree {
    /// The tree as folded stacks, the input flame-graph tools take: one line per stack end, its frames from the
    /// outermost caller to the executing frame joined by `;`, then a space and ``Frame/endSamples``.
    ///
    /// Frame labels are those of ``label(of:)`` with `;`, white space and control characters replaced by `_`, so a
    /// hostile binary name cannot split a line or a stack. Lines stop once `frameBudget` frames have been
    /// written (a chain where every frame ends a stack costs its depth squared); `isComplete` then says so.
    package func foldedStacks(frameBudget: Int = 5_000_000) -> (lines: [String], isComplete: Bool) {
        var labels = [String?](repeating: nil, count: frames.count)
        func safeLabel(_ id: Int) -> String {
            if let known = labels[id] { return known }
            let cleaned = String(
                String.UnicodeScalarView(
                    label(of: id).unicodeScalars.map { scalar in
                        scalar == ";" || scalar.properties.isWhitespace || scalar.value < 0x20
                            || (0x7F...0x9F).contains(scalar.value) ? "_" : scalar
                    }
                )
            )
            labels[id] = cleaned
            return cleaned
        }
        var lines: [String] = []
        var budget = frameBudget
        for frame in frames where frame.endSamples > 0 {
            var parts: [String] = []
            var cursor: Int? = frame.id
            while let id = cursor, frames.indices.contains(id), parts.count <= frame.depth {
                guard budget > 0 else { return (lines, false) }
                budget -= 1
                parts.append(safeLabel(id))
                cursor = frames[id].parent
            }
            lines.append(parts.joined(separator: ";") + " " + String(frame.endSamples))
        }
        return (lines, true)
    }
}
