extension CrashReport.Profile {
    /// The samples as folded stacks (`outer;…;inner count`), the input of flame-graph tools.
    ///
    /// One line per distinct stack, sorted, the count the samples that had it. `isComplete` is false when `frameBudget` frames were
    /// written and the rest left out.
    ///
    /// A sample lists its frames innermost first; folded stacks start at the root, so each is read backwards. Frame
    /// names lose the characters the format gives a meaning to (`;`, whitespace) and control characters.
    package func foldedStacks(frameBudget: Int = 5_000_000) -> (lines: [String], isComplete: Bool) {
        var labels = [String?](repeating: nil, count: frames.count)
        var counts: [String: Int] = [:]
        var budget = frameBudget
        var complete = true
        for sample in samples where !sample.frames.isEmpty {
            guard budget >= sample.frames.count else {
                complete = false
                break
            }
            budget -= sample.frames.count
            var parts: [String] = []
            parts.reserveCapacity(sample.frames.count)
            for index in sample.frames.reversed() where frames.indices.contains(index) {
                if let known = labels[index] {
                    parts.append(known)
                } else {
                    let label = Self.foldedLabel(frames[index])
                    labels[index] = label
                    parts.append(label)
                }
            }
            counts[parts.joined(separator: ";"), default: 0] += 1
        }
        let lines = counts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { "\($0) \(counts[$0] ?? 0)" }
        return (lines, complete)
    }

    /// The symbol, else `image+offset`, else the address, made safe for one field of a folded line.
    package static func foldedLabel(_ frame: CrashReport.Frame) -> String {
        if let symbol = frame.symbol, !symbol.isEmpty { return foldedField(symbol) }
        if let offset = frame.imageOffset {
            return foldedField((frame.image ?? "???") + "+0x" + String(offset, radix: 16))
        }
        return foldedField(frame.address?.description ?? "???")
    }

    /// `name` made safe for one field of a folded line: `;`, whitespace and control characters become `_`.
    package static func foldedField(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            let unsafe =
                scalar == ";" || scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F
                || (0x80...0x9F).contains(scalar.value)
            scalars.append(unsafe ? "_" : scalar)
        }
        return scalars.isEmpty ? "???" : String(scalars)
    }
}
