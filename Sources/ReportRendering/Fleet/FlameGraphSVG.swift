import APMInspectCore

/// A flame graph as an inline SVG element: one rectangle per frame, as wide as the share of the stacks that pass
/// through it, the root at the bottom, each with a `<title>` tooltip.
///
/// The stacks come from reports, so they are hostile: every name is escaped (``HTMLText``, valid in XML too), the
/// depth and the number of frames drawn are bounded, and a frame narrower than a pixel is left out with what it
/// called. The output depends only on the stacks (children in byte order of their names, colours from a hash of
/// the name, fixed decimals), so a golden test can compare it byte for byte.
package struct FlameGraphSVG: Sendable {
    /// The drawing's width in SVG units (it scales down with the page through its `viewBox`).
    package var width = 1200
    package var rowHeight = 17
    /// Frames from the root drawn at most; deeper ones add to their ancestor at the limit.
    package var maxDepth = 48
    /// Frames drawn at most, over the whole graph.
    package var maxFrames = 2000
    /// The narrowest frame drawn, in SVG units.
    package var minFrameWidth = 1.0

    package init() {}

    private struct Node {
        var name: String
        var count = 0
        var children: [String: Int] = [:]
    }

    /// The graph of `stacks`, or an empty string when they count nothing.
    ///
    /// Each stack is its frames root first with the number of samples or reports that had it; `id` and `label`
    /// name the element.
    package func render(_ stacks: [(frames: [String], count: Int)], id: String, label: String) -> String {
        var nodes = [Node(name: "all")]
        for stack in stacks where stack.count > 0 {
            nodes[0].count = Self.adding(nodes[0].count, stack.count)
            var current = 0
            for frame in stack.frames.prefix(maxDepth) {
                let name = Self.shortened(frame)
                if let child = nodes[current].children[name] {
                    current = child
                } else {
                    // Past the budget a frame is not created: its samples stay with the frame that called it.
                    guard nodes.count < maxFrames else { break }
                    nodes.append(Node(name: name))
                    nodes[current].children[name] = nodes.count - 1
                    current = nodes.count - 1
                }
                nodes[current].count = Self.adding(nodes[current].count, stack.count)
            }
        }
        let total = nodes[0].count
        guard total > 0 else { return "" }
        // Lay out from the root: (node, depth, x) for every frame wide enough to see.
        var placed: [(node: Int, depth: Int, x: Double, width: Double)] = []
        var pending: [(node: Int, depth: Int, x: Double)] = [(0, 0, 0)]
        while let (index, depth, x) = pending.popLast() {
            let frameWidth = Double(width) * Double(nodes[index].count) / Double(total)
            guard frameWidth >= minFrameWidth else { continue }
            placed.append((index, depth, x, frameWidth))
            var childX = x
            var children: [(node: Int, depth: Int, x: Double)] = []
            let names = nodes[index].children.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for name in names {
                guard let child = nodes[index].children[name] else { continue }
                children.append((child, depth + 1, childX))
                childX += Double(width) * Double(nodes[child].count) / Double(total)
            }
            pending.append(contentsOf: children.reversed())
        }
        let rows = (placed.map(\.depth).max() ?? 0) + 1
        let height = rows * rowHeight
        var out = "<svg id=\"\(HTMLText.escaped(id))\" class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
        out += "width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" "
        out += "aria-label=\"\(HTMLText.escaped(label))\">\n"
        for frame in placed {
            let node = nodes[frame.node]
            let y = (rows - 1 - frame.depth) * rowHeight
            let share = Double(node.count) / Double(total) * 100
            let title = "\(node.name) (\(node.count), \(Self.number(share)) %)"
            out += "<g class=\"flame-frame\" data-depth=\"\(frame.depth)\" data-count=\"\(node.count)\">"
            out += "<title>\(HTMLText.escaped(title))</title>"
            out += "<rect x=\"\(Self.number(frame.x))\" y=\"\(y)\" width=\"\(Self.number(frame.width))\" "
            out += "height=\"\(rowHeight - 1)\" fill=\"\(Self.colour(node.name))\"/>"
            // About 7 units a character at 11 px: a label that does not fit is cut, one too narrow left out.
            let fits = Int(exactly: ((max(6, min(frame.width, Double(width))) - 6) / 7).rounded(.down)) ?? 0
            if fits >= 3 {
                let label = node.name.count <= fits ? node.name : String(node.name.prefix(max(1, fits - 1))) + "…"
                out += "<text x=\"\(Self.number(frame.x + 3))\" y=\"\(y + rowHeight - 5)\">"
                out += HTMLText.escaped(label) + "</text>"
            }
            out += "</g>\n"
        }
        return out + "</svg>\n"
    }

    /// A name of at most ``maxNameCharacters`` characters, cut in the middle: a hostile symbol of a megabyte
    /// would otherwise be copied into the page.
    static func shortened(_ name: String) -> String {
        guard name.count > maxNameCharacters else { return name }
        let half = maxNameCharacters / 2
        return String(name.prefix(half)) + "…" + String(name.suffix(half))
    }

    static let maxNameCharacters = 300

    /// A warm colour from a hash of the name (FNV-1a), so one frame has one colour in every graph.
    static func colour(_ name: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let red = 205 + hash % 50
        let green = (hash >> 8) % 200
        let blue = (hash >> 16) % 55
        return "rgb(\(red),\(green),\(blue))"
    }

    /// Two decimals at most, without a trailing zero (`12.5`, `3`): the same text on every platform.
    static func number(_ value: Double) -> String {
        let clamped = value.isFinite ? min(max(value, 0), 1e9) : 0
        guard let hundredths = Int(exactly: (clamped * 100).rounded()) else { return "0" }
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return String(whole) }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
