import APMInspectCore

extension MetricKitReader {
    /// The names a call-stack tree's lists go by: `jsonRepresentation()`'s, or those of the Codable
    /// `CallStackTree` of iOS/macOS 27, which also names binaries once in `binaryInfo` rather than in every frame.
    struct TreeKeys {
        var stacks: String
        var roots: String
        var readsBinaryInfo: Bool

        static let legacy = TreeKeys(stacks: "callStacks", roots: "callStackRootFrames", readsBinaryInfo: false)
        static let codable = TreeKeys(stacks: "callStackThreads", roots: "rootFrames", readsBinaryInfo: true)
    }

    /// Reads an `MXCallStackTree` depth first with an explicit stack: frames in pre-order, each with its parent.
    func readTree(
        _ object: JSONElement,
        keyPath: String,
        keys: TreeKeys = .legacy,
        findings: inout MetricKitFindings,
        budget: inout Budget
    ) -> MetricKitCallTree {
        var tree = MetricKitCallTree()
        var treeUnknown: [JSONValue.Member] = []
        var stacksElement: JSONElement?
        var binaryInfo: JSONElement?
        object.forEachMember { key, value in
            switch key {
            case "callStackPerThread": tree.perThread = Self.flag(value)
            case keys.stacks: stacksElement = value
            case "binaryInfo" where keys.readsBinaryInfo: binaryInfo = value
            default: treeUnknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        if !treeUnknown.isEmpty { tree.unknownKeys = .object(treeUnknown) }
        guard let stacksElement else {
            findings.add(
                .warning,
                .metricKitTreeWithoutStacks,
                "the call-stack tree has no \(keys.stacks)",
                at: object,
                keyPath: keyPath
            )
            return tree
        }
        guard stacksElement.kind == .array else {
            findings.add(
                .warning,
                .metricKitWrongType,
                "\(keys.stacks) is not an array",
                at: stacksElement,
                keyPath: Self.join(keyPath, keys.stacks)
            )
            return tree
        }
        struct Pending {
            var element: JSONElement
            var parent: Int?
            var depth: Int
            /// Position among its siblings (`subFrames[index]` or `callStackRootFrames[index]`).
            var index: Int
        }
        // Key paths are built only for findings, from each frame's parent and position: a path per pending
        // frame would cost its depth for every sibling, far more than the input bytes of the sibling.
        var positions: [Int] = []
        func path(stack: Int, parent: Int?, index: Int) -> String {
            var parts: [String] = []
            var cursor = parent
            while let id = cursor, positions.indices.contains(id), parts.count <= tree.frames.count {
                parts.append("subFrames[\(positions[id])]")
                cursor = tree.frames[id].parent
            }
            let leaf = parent == nil ? "\(keys.roots)[\(index)]" : "subFrames[\(index)]"
            var text = Self.join(keyPath, "\(keys.stacks)[\(stack)]")
            // The outermost position is that of the root among the stack's roots.
            if let root = parts.popLast() { text += "." + keys.roots + root.dropFirst("subFrames".count) }
            for part in parts.reversed() { text += "." + part }
            return text + "." + leaf
        }
        var childSums: [Int] = []
        for (stackIndex, stackElement) in stacksElement.elements.enumerated() {
            let stackPath = Self.join(keyPath, "\(keys.stacks)[\(stackIndex)]")
            var stack = MetricKitCallTree.Stack(index: stackIndex)
            let (threadAttributed, roots, stackUnknown) = Self.level(
                stackElement,
                flag: "threadAttributed",
                child: keys.roots
            )
            stack.threadAttributed = threadAttributed
            stack.unknownKeys = stackUnknown
            var pending: [Pending] = []
            if let roots, roots.kind == .array {
                for (k, element) in roots.elements.enumerated().reversed() {
                    pending.append(Pending(element: element, parent: nil, depth: 0, index: k))
                }
            } else if stackElement.kind != .object {
                findings.add(
                    .warning,
                    .metricKitWrongType,
                    "a call stack is not an object",
                    at: stackElement,
                    keyPath: stackPath
                )
            } else if let roots {
                findings.add(
                    .warning,
                    .metricKitWrongType,
                    "\(keys.roots) is not an array",
                    at: roots,
                    keyPath: stackPath
                )
            }
            while let next = pending.popLast() {
                guard budget.frames > 0 else {
                    if !budget.framesExhausted {
                        budget.framesExhausted = true
                        findings.add(
                            .warning,
                            .metricKitFramesTruncated,
                            "more than \(maxFrames) frames: the rest of the call stacks were left out",
                            at: next.element,
                            keyPath: path(stack: stackIndex, parent: next.parent, index: next.index)
                        )
                    }
                    break
                }
                let isObject = findings.expect(
                    next.element,
                    is: .object,
                    "a frame is not an object",
                    keyPath: path(stack: stackIndex, parent: next.parent, index: next.index)
                )
                guard isObject else { continue }
                budget.frames -= 1
                let id = tree.frames.count
                var frame = MetricKitCallTree.Frame(id: id, parent: next.parent, stack: stackIndex, depth: next.depth)
                var subFrames: JSONElement?
                var unknown: [JSONValue.Member] = []
                // A number the model cannot hold (beyond 64 bits, negative, fractional) is kept as written among the
                // unknown keys, with a finding: the frame stays, without that value.
                func number(_ key: String, _ value: JSONElement) -> UInt64? {
                    if let number = Self.unsigned(value) { return number }
                    guard value.kind != .null else { return nil }
                    unknown.append(JSONValue.Member(key: key, value: value.materialized))
                    findings.add(
                        .warning,
                        .metricKitWrongType,
                        "\(key) is not an unsigned 64-bit integer: kept as written among the frame's unknown keys",
                        at: value,
                        keyPath: path(stack: stackIndex, parent: next.parent, index: next.index) + "." + key
                    )
                    return nil
                }
                next.element.forEachMember { key, value in
                    switch key {
                    case "binaryName": frame.binaryName = value.string
                    case "binaryUUID": frame.binaryUUID = value.string
                    case "address": frame.address = number(key, value).map(HexValue.init)
                    case "offsetIntoBinaryTextSegment": frame.offsetIntoBinaryTextSegment = number(key, value)
                    case "sampleCount": frame.sampleCount = number(key, value).map { Int(clamping: $0) }
                    case "subFrames": subFrames = value
                    case "symbolName" where value.kind == .string: frame.symbolName = value.string
                    case "fileName" where value.kind == .string: frame.fileName = value.string
                    case "lineNumber" where value.kind == .number: frame.lineNumber = value.int64
                    case "isBlameFrame" where value.kind == .bool: frame.isBlameFrame = value.bool
                    case "rawFrame" where value.kind == .string: frame.rawFrame = value.string
                    default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
                    }
                }
                if !unknown.isEmpty { frame.unknownKeys = .object(unknown) }
                tree.frames.append(frame)
                childSums.append(0)
                positions.append(next.index)
                if next.parent == nil { stack.rootFrames.append(id) }
                if let subFrames, subFrames.kind == .array {
                    for (k, element) in subFrames.elements.enumerated().reversed() {
                        pending.append(
                            Pending(
                                element: element,
                                parent: id,
                                depth: next.depth + 1,
                                index: k
                            )
                        )
                    }
                } else if let subFrames {
                    findings.add(
                        .warning,
                        .metricKitWrongType,
                        "subFrames is not an array",
                        at: subFrames,
                        keyPath: path(stack: stackIndex, parent: next.parent, index: next.index)
                    )
                }
            }
            tree.stacks.append(stack)
        }
        if let binaryInfo {
            nameBinaries(&tree, from: binaryInfo, keyPath: Self.join(keyPath, "binaryInfo"), findings: &findings)
        }
        Self.summarise(&tree, childSums: &childSums)
        resolveLoadAddresses(&tree, keyPath: keyPath, findings: &findings)
        return tree
    }

    /// A JSON number or numeric string as an unsigned 64-bit value; nil for anything else, negative or too large.
    static func unsigned(_ value: JSONElement) -> UInt64? {
        if let number = value.uint64 { return number }
        if let text = value.string {
            let trimmed = text.trimmingASCIIWhitespace()
            if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") { return UInt64(trimmed.dropFirst(2), radix: 16) }
            return UInt64(trimmed)
        }
        return nil
    }

    /// Self, total and end samples per frame, stack totals and the heaviest path.
    ///
    /// Frames are in pre-order, so walking them backwards sees every child (a caller, in MetricKit's inverted tree) before its parent.
    static func summarise(_ tree: inout MetricKitCallTree, childSums: inout [Int]) {
        func add(_ a: Int, _ b: Int) -> Int {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? Int.max : sum
        }
        for id in tree.frames.indices.reversed() {
            let children = childSums[id]
            let total = tree.frames[id].sampleCount ?? children
            tree.frames[id].totalSamples = total
            tree.frames[id].endSamples = max(0, total - children)
            tree.frames[id].selfSamples = tree.frames[id].parent == nil ? total : 0
            if let parent = tree.frames[id].parent, childSums.indices.contains(parent) {
                childSums[parent] = add(childSums[parent], total)
            }
        }
        var total = 0
        for s in tree.stacks.indices {
            var stackTotal = 0
            for root in tree.stacks[s].rootFrames where tree.frames.indices.contains(root) {
                stackTotal = add(stackTotal, tree.frames[root].totalSamples)
            }
            tree.stacks[s].totalSamples = stackTotal
            total = add(total, stackTotal)
        }
        tree.totalSamples = total
        // The heaviest caller of each frame, found in one pass (first one wins a tie, as it comes first in the file).
        var heaviestChild = [Int?](repeating: nil, count: tree.frames.count)
        var heaviestRoot: Int?
        for frame in tree.frames {
            if let parent = frame.parent {
                guard heaviestChild.indices.contains(parent) else { continue }
                if let current = heaviestChild[parent], tree.frames[current].totalSamples >= frame.totalSamples {
                    continue
                }
                heaviestChild[parent] = frame.id
            } else if heaviestRoot.map({ tree.frames[$0].totalSamples < frame.totalSamples }) ?? true {
                heaviestRoot = frame.id
            }
        }
        var path: [Int] = []
        var cursor = heaviestRoot
        while let id = cursor, path.count <= tree.frames.count {
            path.append(id)
            cursor = heaviestChild[id]
        }
        tree.heaviestPath = path
    }

    /// Works out each binary's load address and each frame's offset into its binary.
    ///
    /// `offsetIntoBinaryTextSegment` is normally the offset, and the load address `address - offset`. iOS 14.0
    /// wrote the load address itself there: then every frame of a binary carries the same value while their
    /// addresses differ, or the value is page-aligned above 4 GiB, where no text-segment offset lies.
    func resolveLoadAddresses(_ tree: inout MetricKitCallTree, keyPath: String, findings: inout MetricKitFindings) {
        struct Seen {
            var offset: UInt64
            var firstAddress: UInt64
            var sameOffset = true
            var differentAddresses = false
            var offsetNotAbove = true
        }
        var binaries: [String: Seen] = [:]
        for frame in tree.frames {
            guard let offset = frame.offsetIntoBinaryTextSegment, let address = frame.address?.value else { continue }
            let key = frame.binaryUUID ?? frame.binaryName ?? ""
            if var seen = binaries[key] {
                if seen.offset != offset { seen.sameOffset = false }
                if seen.firstAddress != address { seen.differentAddresses = true }
                if offset > address { seen.offsetNotAbove = false }
                binaries[key] = seen
            } else {
                binaries[key] = Seen(offset: offset, firstAddress: address, offsetNotAbove: offset <= address)
            }
        }
        var loadAddressInField: Set<String> = []
        for (key, seen) in binaries where seen.sameOffset && seen.offsetNotAbove {
            let pageAlignedHigh = seen.offset >= 1 << 32 && seen.offset % 4096 == 0
            if seen.differentAddresses || pageAlignedHigh { loadAddressInField.insert(key) }
        }
        if !loadAddressInField.isEmpty {
            findings.add(
                .note,
                .metricKitLoadAddressAsOffset,
                "offsetIntoBinaryTextSegment holds the load address of \(loadAddressInField.count) binaries "
                    + "(as iOS 14.0 wrote it): offsets were taken as address minus that value",
                at: nil,
                keyPath: keyPath
            )
        }
        for i in tree.frames.indices {
            guard let offset = tree.frames[i].offsetIntoBinaryTextSegment else { continue }
            let key = tree.frames[i].binaryUUID ?? tree.frames[i].binaryName ?? ""
            guard let address = tree.frames[i].address?.value else {
                tree.frames[i].imageOffset = offset
                continue
            }
            if loadAddressInField.contains(key) {
                tree.frames[i].loadAddress = HexValue(offset)
                tree.frames[i].imageOffset = address - offset
            } else if offset <= address {
                tree.frames[i].loadAddress = HexValue(address - offset)
                tree.frames[i].imageOffset = offset
            } else {
                // An address below its own offset (Xcode's simulated payloads): the offset alone is kept.
                tree.frames[i].imageOffset = offset
            }
        }
    }

    /// The members of one level of a call-stack tree (the tree, or one of its stacks): a flag, the element holding
    /// the next level down, and the members the model has no field for, kept verbatim (nil when there are none).
    private static func level(_ object: JSONElement, flag flagKey: String, child childKey: String) -> (
        flag: Bool?, child: JSONElement?, unknown: JSONValue?
    ) {
        var flag: Bool?
        var child: JSONElement?
        var unknown: [JSONValue.Member] = []
        object.forEachMember { key, value in
            switch key {
            case flagKey: flag = Self.flag(value)
            case childKey: child = value
            default: unknown.append(JSONValue.Member(key: key, value: value.materialized))
            }
        }
        return (flag, child, unknown.isEmpty ? nil : .object(unknown))
    }

}
