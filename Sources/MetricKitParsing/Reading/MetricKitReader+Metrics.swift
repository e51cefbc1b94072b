import APMInspectCore

extension MetricKitReader {
    /// Longest figure name kept.
    ///
    /// Longer paths keep their start and end around `…`. With the figure budget this bounds the memory names take,
    /// whatever the nesting or the length of the keys.
    static let maxNameBytes = 256

    /// Walks one metric category with an explicit stack, keeping every figure under its path.
    ///
    /// Containers count against the figure budget as figures do, and names are bounded: a deep or wide category
    /// costs at most the budget times the name bound.
    func readMetricCategory(
        _ category: String,
        _ value: JSONElement,
        into metrics: inout MetricKitMetrics,
        findings: inout MetricKitFindings,
        budget: inout Budget
    ) {
        // A pending value names its container and its key or index; its name is made when it is taken, so the
        // siblings waiting on the stack hold no copy of their container's path.
        enum Step {
            case top
            case key(String)
            case index(Int)
        }
        var containerNames: [String] = []
        var pending: [(element: JSONElement, container: Int, step: Step)] = [(value, -1, .top)]
        while let (element, container, step) = pending.popLast() {
            let prefix = containerNames.indices.contains(container) ? containerNames[container] : ""
            let name: String =
                switch step {
                case .top: ""
                case .key(let key): Self.figureName(prefix, key)
                case .index(let index): Self.bounded("\(prefix)[\(index)]")
                }
            guard budget.entries > 0 else {
                if !budget.entriesExhausted {
                    budget.entriesExhausted = true
                    findings.add(
                        .warning,
                        .metricKitMetricsTruncated,
                        "more than \(maxMetricEntries) metric figures: the rest were left out",
                        at: element,
                        keyPath: Self.join(category, name)
                    )
                }
                return
            }
            var entry = MetricKitMetrics.Entry(category: category, name: name)
            switch element.kind {
            case .string:
                let text = element.string ?? ""
                let measurement = MetricKitMeasurement(raw: text)
                if measurement.value != nil { entry.measurement = measurement } else { entry.text = text }
            case .number:
                entry.number = element.double
            case .bool:
                entry.number = element.bool == true ? 1 : 0
            case .null:
                continue
            case .object:
                if let histogram = element.member("histogramValue") {
                    entry.histogram = Self.histogram(histogram, declared: element.member("histogramNumBuckets"))
                } else if let average = element.member("averageValue") {
                    entry.average = MetricKitMetrics.Average(
                        value: average.string.map(MetricKitMeasurement.init(raw:)),
                        standardDeviation: element.member("standardDeviation")?.double,
                        sampleCount: element.member("sampleCount")?.int64
                    )
                } else {
                    budget.entries -= 1
                    containerNames.append(name)
                    let id = containerNames.count - 1
                    // The same labelled tuple as `pending`, appended in reverse in place: an unlabelled array
                    // was cast element by element, and `reversed()` made a third copy.
                    let first = pending.count
                    element.forEachMember { key, child in
                        pending.append((element: child, container: id, step: .key(key)))
                    }
                    pending[first...].reverse()
                    continue
                }
            case .array:
                budget.entries -= 1
                containerNames.append(name)
                let id = containerNames.count - 1
                let first = pending.count
                for (index, item) in element.elements.enumerated() {
                    pending.append((element: item, container: id, step: .index(index)))
                }
                pending[first...].reverse()
                continue
            }
            budget.entries -= 1
            metrics.entries.append(entry)
        }
    }

    static func figureName(_ prefix: String, _ key: String) -> String {
        bounded(join(prefix, key.utf8.count > maxNameBytes ? String(bounded(key)) : key))
    }

    /// `text` when it fits in ``maxNameBytes``, else its first and last bytes' worth of characters around `…`.
    static func bounded(_ text: String) -> String {
        guard text.utf8.count > maxNameBytes else { return text }
        let half = maxNameBytes / 2 - 2
        var head = ""
        for character in text {
            guard head.utf8.count + character.utf8.count <= half else { break }
            head.append(character)
        }
        var tail: [Character] = []
        var tailBytes = 0
        for character in text.reversed() {
            guard tailBytes + character.utf8.count <= half else { break }
            tail.append(character)
            tailBytes += character.utf8.count
        }
        return head + "…" + String(tail.reversed())
    }

    /// Summarises `histogramValue`: an object of buckets keyed `"0"`, `"1"` … (or an array of them), each
    /// `bucketStart`, `bucketEnd` and `bucketCount`.
    static func histogram(_ value: JSONElement, declared: JSONElement?) -> MetricKitMetrics.Histogram {
        var buckets: [MetricKitMetrics.Histogram.Bucket] = []
        func read(_ bucket: JSONElement) {
            guard bucket.kind == .object else { return }
            let count = bucket.member("bucketCount")?.int64 ?? 0
            buckets.append(
                MetricKitMetrics.Histogram.Bucket(
                    start: bucket.member("bucketStart").flatMap(Self.measurement),
                    end: bucket.member("bucketEnd").flatMap(Self.measurement),
                    count: max(0, count)
                )
            )
        }
        if value.kind == .array {
            for bucket in value.elements { read(bucket) }
        } else {
            value.forEachMember { _, bucket in read(bucket) }
        }
        buckets.sort { ($0.start?.value ?? 0) < ($1.start?.value ?? 0) }
        var total: Int64 = 0
        for bucket in buckets {
            let (sum, overflow) = total.addingReportingOverflow(bucket.count)
            total = overflow ? Int64.max : sum
        }
        var histogram = MetricKitMetrics.Histogram(
            buckets: buckets,
            declaredBuckets: declared?.int64,
            total: total,
            unit: buckets.first?.start?.unit ?? buckets.first?.end?.unit
        )
        histogram.p50 = percentile(0.5, of: buckets, total: total)
        histogram.p90 = percentile(0.9, of: buckets, total: total)
        return histogram
    }

    static func measurement(_ value: JSONElement) -> MetricKitMeasurement? {
        if let text = value.string { return MetricKitMeasurement(raw: text) }
        if value.kind == .number, let text = value.rawText { return MetricKitMeasurement(raw: text) }
        return nil
    }

    /// The value at `fraction` of the samples, interpolated linearly inside the bucket that holds it.
    static func percentile(_ fraction: Double, of buckets: [MetricKitMetrics.Histogram.Bucket], total: Int64) -> Double?
    {
        guard total > 0 else { return nil }
        let rank = fraction * Double(total)
        var seen = 0.0
        for bucket in buckets where bucket.count > 0 {
            let count = Double(bucket.count)
            if seen + count >= rank {
                guard let start = bucket.start?.value else { return bucket.end?.value }
                let end = bucket.end?.value ?? start
                let result = start + (end - start) * ((rank - seen) / count)
                return result.isFinite ? result : nil
            }
            seen += count
        }
        return buckets.last?.end?.value
    }

    /// Exit counts by reason from `applicationExitMetrics` (`foregroundExitData.cumulativeNormalAppExitCount` is
    /// `foreground.normal`).
    static func exits(from entries: [MetricKitMetrics.Entry]) -> [String: Int64] {
        var exits: [String: Int64] = [:]
        // By index: a loop over the entries copied each one (a dozen strings retained and released) to look at two.
        for index in entries.indices where entries[index].category == "applicationExitMetrics" {
            guard let number = entries[index].number, number.isFinite, number >= 0, number < 9e18 else { continue }
            let name = entries[index].name
            guard let key = plainExitKey(name) ?? exitKey(name) else { continue }
            exits[key] = Int64(saturating: number)
        }
        return exits
    }

    /// The exit key of a figure name (`foregroundExitData.cumulativeNormalAppExitCount` is `foreground.normal`),
    /// read Character by Character: any name.
    static func exitKey(_ name: String) -> String? {
        let parts = name.split(separator: ".")
        guard parts.count == 2 else { return nil }
        let state: String
        switch parts[0] {
        case "foregroundExitData": state = "foreground"
        case "backgroundExitData": state = "background"
        default: return nil
        }
        var reason = String(parts[1])
        for prefix in ["cumulative"] where reason.hasPrefix(prefix) { reason.removeFirst(prefix.count) }
        for suffix in ["ExitCount", "Count"] where reason.hasSuffix(suffix) {
            reason.removeLast(suffix.count)
            break
        }
        if reason.hasPrefix("App") { reason.removeFirst(3) }
        if reason.hasSuffix("App") { reason.removeLast(3) }
        guard let first = reason.first else { return nil }
        reason = first.lowercased() + reason.dropFirst()
        return "\(state).\(reason)"
    }

    /// ``exitKey(_:)`` read from the bytes, for a name that is plain ASCII; nil for other names, which take the
    /// Character walk, and `.some(nil)` for a plain name that is no exit figure.
    ///
    /// There each byte is one Character, so byte tests find what the Character tests find; these took some 400,000
    /// instructions a metric payload, half of its reading (issue 21).
    static func plainExitKey(_ name: String) -> String?? {
        var name = name
        return name.withUTF8 { bytes -> String?? in
            guard UTF8Search.isPlainASCII(bytes) else { return nil }
            // The two pieces around the dots, empty pieces skipped as `split` skips them.
            var pieces = (0..<0, 0..<0)
            var count = 0
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ".") {
                if index > start {
                    switch count {
                    case 0: pieces.0 = start..<index
                    case 1: pieces.1 = start..<index
                    default: return .some(nil)
                    }
                    count += 1
                }
                start = index + 1
            }
            guard count == 2 else { return .some(nil) }
            func matches(_ range: Range<Int>, _ text: StaticString) -> Bool {
                guard range.count == text.utf8CodeUnitCount else { return false }
                for offset in 0..<range.count where bytes[range.lowerBound + offset] != text.utf8Start[offset] {
                    return false
                }
                return true
            }
            let state: StaticString
            if matches(pieces.0, "foregroundExitData") {
                state = "foreground"
            } else if matches(pieces.0, "backgroundExitData") {
                state = "background"
            } else {
                return .some(nil)
            }
            var lower = pieces.1.lowerBound
            var upper = pieces.1.upperBound
            func starts(_ text: StaticString) -> Bool {
                upper - lower >= text.utf8CodeUnitCount
                    && matches(lower..<(lower + text.utf8CodeUnitCount), text)
            }
            func ends(_ text: StaticString) -> Bool {
                upper - lower >= text.utf8CodeUnitCount
                    && matches((upper - text.utf8CodeUnitCount)..<upper, text)
            }
            if starts("cumulative") { lower += 10 }
            if ends("ExitCount") {
                upper -= 9
            } else if ends("Count") {
                upper -= 5
            }
            if starts("App") { lower += 3 }
            if ends("App") { upper -= 3 }
            guard lower < upper else { return .some(nil) }
            // `state.reason`, the reason's first letter lower-cased, written in one go.
            let stateCount = state.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: stateCount + 1 + upper - lower) { out in
                for offset in 0..<stateCount { out[offset] = state.utf8Start[offset] }
                out[stateCount] = UInt8(ascii: ".")
                for offset in lower..<upper { out[stateCount + 1 + offset - lower] = bytes[offset] }
                let first = out[stateCount + 1]
                if first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") { out[stateCount + 1] = first + 0x20 }
                return stateCount + 1 + upper - lower
            }
        }
    }
}
