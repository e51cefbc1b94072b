import APMInspectCore
import PowerLogReading

/// Draws a PowerLog history as SVG: battery level over time on top, energy per hour by consumer beneath it.
///
/// Stretches with no data longer than `gapSeconds` (the device off, a log rotated away) are cut out of the time
/// axis and marked, so a 10-hour history around a 6-week gap still reads at a glance.
package struct PowerLogPlot {
    package var report: PowerLogReport
    package var gapSeconds: Double = 3 * 3600
    package var consumersShown = 6
    /// (UTC seconds, local UTC offset) of every sample and bucket, in time order, for axis labels.
    private let zoneTimeline: [(Double, Int)]

    package init(report: PowerLogReport) {
        self.report = report
        let times = (report.battery?.samples.map(\.at) ?? []) + (report.energy?.buckets.map(\.start) ?? [])
        zoneTimeline = times.compactMap { time in time.wallClock.map { (time.utcSeconds, $0.utcOffsetSeconds) } }
            .sorted { $0.0 < $1.0 }
    }

    private let width = 1100.0
    private let left = 64.0
    private let right = 24.0
    private let batteryTop = 78.0
    private let batteryHeight = 220.0
    private let energyTop = 350.0
    private let energyHeight = 190.0
    private let breakWidth = 22.0

    package static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948"]

    /// A stretch of the history drawn without a cut.
    private struct Segment {
        var start: Double
        var end: Double
        var x: Double = 0
        var width: Double = 0
        var utcOffset: Int = 0
    }

    package func svg() -> String {
        let segments = layout()
        let height = energyTop + energyHeight + 110
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(saturating: width))" height="\(Int(saturating: height))" \
            viewBox="0 0 \(Int(saturating: width)) \(Int(saturating: height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        out += text(left, 26, title(), size: 17, weight: "bold")
        out += text(left, 46, subtitle(), size: 12, fill: "#555")
        guard !segments.isEmpty else {
            out += text(left, batteryTop + 40, "No battery samples or energy buckets in this history.", size: 14)
            return out + "</svg>\n"
        }
        out += batteryPanel(segments)
        out += energyPanel(segments)
        out += axis(segments, y: energyTop + energyHeight)
        out += legend(y: energyTop + energyHeight + 62)
        return out + "</svg>\n"
    }

    // MARK: - Layout

    private func layout() -> [Segment] {
        var spans: [(Double, Double, Int)] = []
        for sample in report.battery?.samples ?? [] {
            spans.append((sample.at.utcSeconds, sample.at.utcSeconds, sample.at.wallClock?.utcOffsetSeconds ?? 0))
        }
        for bucket in report.energy?.buckets ?? [] where bucket.intervalSeconds <= 3600 {
            let start = bucket.start.utcSeconds
            spans.append((start, start + bucket.intervalSeconds, bucket.start.wallClock?.utcOffsetSeconds ?? 0))
        }
        // Times a clock cannot show (hostile rows, years beyond 5000) would stretch the axis to nothing.
        spans = spans.filter { abs($0.0) < 1e11 && abs($0.1) < 1e11 }
        spans.sort { $0.0 < $1.0 }
        var segments: [Segment] = []
        for (start, end, offset) in spans {
            if var last = segments.last, start - last.end <= gapSeconds {
                last.end = max(last.end, end)
                segments[segments.count - 1] = last
            } else {
                segments.append(Segment(start: start, end: end, utcOffset: offset))
            }
        }
        let available = width - left - right - breakWidth * Double(max(0, segments.count - 1))
        let minimum = min(80, available / Double(max(1, segments.count)))
        let total = segments.reduce(0) { $0 + max($1.end - $1.start, 1) }
        // Each stretch gets width in proportion to its duration, but never less than `minimum`.
        let stretchable = available - minimum * Double(segments.count)
        var x = left
        for index in segments.indices {
            let share = max(segments[index].end - segments[index].start, 1) / total
            segments[index].x = x
            segments[index].width = minimum + max(0, stretchable) * share
            x += segments[index].width + breakWidth
        }
        return segments
    }

    private func xPosition(_ t: Double, _ segments: [Segment]) -> Double? {
        guard let segment = segments.first(where: { t >= $0.start - 1 && t <= $0.end + 1 }) else { return nil }
        let span = max(segment.end - segment.start, 1)
        return segment.x + min(max((t - segment.start) / span, 0), 1) * segment.width
    }

    // MARK: - Panels

    private func batteryPanel(_ segments: [Segment]) -> String {
        var out = text(left, batteryTop - 10, "Battery level (%)", size: 13, weight: "bold")
        for level in stride(from: 0, through: 100, by: 25) {
            let y = batteryTop + batteryHeight * (1 - Double(level) / 100)
            for segment in segments {
                out += line(segment.x, y, segment.x + segment.width, y, stroke: "#e3e3e3")
            }
            out += text(left - 8, y + 4, "\(level)", anchor: "end", fill: "#666")
        }
        guard let battery = report.battery else {
            return out + text(left + 10, batteryTop + 30, "no battery samples", fill: "#888")
        }
        // Charging periods as green bands behind the line.
        for session in battery.sessions where session.kind != .discharging {
            guard let x0 = xPosition(session.start.utcSeconds, segments),
                let x1 = xPosition(session.end.utcSeconds, segments), x1 > x0
            else { continue }
            let fill = session.kind == .charging ? "#dff3dc" : "#eef6ec"
            out += rect(x0, batteryTop, x1 - x0, batteryHeight, fill: fill)
        }
        if let screen = report.screen {
            out += screenStrip(screen, segments)
        }
        var points: [String] = []
        var previous: Double?
        func flush() {
            if points.count > 1 {
                out +=
                    "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
            } else if let only = points.first {
                let xy = only.split(separator: ",")
                if xy.count == 2 { out += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"2.5\" fill=\"#1f5fa8\"/>\n" }
            }
            points = []
        }
        // A few thousand points draw the curve; months of 20-second samples would only bloat the file.
        let stride = max(1, battery.samples.count / 4000)
        for (index, sample) in battery.samples.enumerated() where index % stride == 0 {
            guard let level = sample.level ?? sample.rawLevel, let x = xPosition(sample.at.utcSeconds, segments) else {
                continue
            }
            if let previous, sample.at.utcSeconds - previous > gapSeconds { flush() }
            previous = sample.at.utcSeconds
            let y = batteryTop + batteryHeight * (1 - min(max(level, 0), 100) / 100)
            points.append("\(fmt(x)),\(fmt(y))")
        }
        flush()
        out += breaks(segments, top: batteryTop, height: batteryHeight)
        return out
    }

    private func screenStrip(_ screen: PowerLogReport.Screen, _ segments: [Segment]) -> String {
        var out = ""
        let y = batteryTop + batteryHeight + 6
        for (index, change) in screen.changes.enumerated() where change.isOn {
            let end = index + 1 < screen.changes.count ? screen.changes[index + 1].at.utcSeconds : change.at.utcSeconds
            guard let x0 = xPosition(change.at.utcSeconds, segments) else { continue }
            let x1 = xPosition(end, segments) ?? x0
            out += rect(x0, y, max(x1 - x0, 1.5), 7, fill: "#f2b705")
        }
        return out + text(left - 8, y + 7, "screen", anchor: "end", size: 10, fill: "#8a6d00")
    }

    private func energyPanel(_ segments: [Segment]) -> String {
        var out = ""
        guard let energy = report.energy, !energy.buckets.isEmpty else {
            return text(left, energyTop - 10, "Energy by hour", size: 13, weight: "bold")
                + text(left + 10, energyTop + 30, "no energy table with rows", fill: "#888")
        }
        out += text(left, energyTop - 10, "Energy by hour, top consumers (\(energy.unit))", size: 13, weight: "bold")
        let hourly = energy.buckets.filter { $0.intervalSeconds <= 3600 }
        let peak = hourly.map(\.total).filter(\.isFinite).max() ?? 0
        let step = niceStep(peak)
        // `niceStep` keeps this at five or so; the clamp keeps a hostile peak from drawing millions of lines.
        let steps = min(max(1, Int(saturating: (peak / step).rounded(.up))), 20)
        let scale = step * Double(steps)
        for index in 0...steps {
            let value = step * Double(index)
            let y = energyTop + energyHeight * (1 - Double(index) / Double(steps))
            for segment in segments { out += line(segment.x, y, segment.x + segment.width, y, stroke: "#e3e3e3") }
            out += text(left - 8, y + 4, compact(value), anchor: "end", fill: "#666")
        }
        let shown = Array(report.apps.prefix(consumersShown).map(\.name))
        for bucket in hourly {
            let start = bucket.start.utcSeconds
            guard let x0 = xPosition(start, segments), let x1 = xPosition(start + bucket.intervalSeconds, segments)
            else { continue }
            let barWidth = max(x1 - x0 - 1, 1)
            var y = energyTop + energyHeight
            var stack: [(String, Double)] = shown.map { name in
                (name, bucket.consumers.first { $0.name == name }?.energy ?? 0)
            }
            stack.append(("other", bucket.total - stack.reduce(0) { $0 + $1.1 }))
            for (index, (_, value)) in stack.enumerated() where value > 0 && value.isFinite && scale > 0 {
                let h = energyHeight * value / scale
                y -= h
                out += rect(x0 + 0.5, y, barWidth, h, fill: color(index, of: shown.count))
            }
        }
        out += breaks(segments, top: energyTop, height: energyHeight)
        return out
    }

    private func breaks(_ segments: [Segment], top: Double, height: Double) -> String {
        var out = ""
        for (a, b) in zip(segments, segments.dropFirst()) {
            let x = a.x + a.width + breakWidth / 2
            out += line(x - 4, top + height + 4, x + 2, top - 4, stroke: "#999", width: 1.5)
            out += line(x + 2, top + height + 4, x + 8, top - 4, stroke: "#999", width: 1.5)
            if top == batteryTop {
                out += text(
                    x + 2,
                    top - 10,
                    "gap " + PowerLogRenderer.duration(b.start - a.end),
                    anchor: "middle",
                    size: 10,
                    fill: "#777"
                )
            }
        }
        return out
    }

    private func axis(_ segments: [Segment], y: Double) -> String {
        var out = ""
        for segment in segments {
            out += line(segment.x, y, segment.x + segment.width, y, stroke: "#444")
            let span = max(segment.end - segment.start, 1)
            let steps: [Double] = [900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172_800, 604_800]
            let wanted = max(1, segment.width / 90)
            let step = steps.first { span / $0 <= wanted } ?? 604_800
            let offset = Double(segment.utcOffset)
            var tick = ((segment.start + offset) / step).rounded(.up) * step - offset
            var lastDay: Int64?
            var drawn = 0
            while tick <= segment.end, drawn < 400 {
                drawn += 1
                guard let x = xPosition(tick, segments) else { break }
                // The zone's offset at the tick itself, so labels after a DST change show the new local time.
                let local = tick + Double(localOffset(at: tick) ?? segment.utcOffset)
                let day = Int64(saturating: (local / 86400).rounded(.down))
                let secondsOfDay = Int(saturating: local - Double(day) * 86400)
                let label = "\(pad(secondsOfDay / 3600)):\(pad(secondsOfDay / 60 % 60))"
                out += line(x, y, x, y + 5, stroke: "#444")
                out += text(x, y + 18, label, anchor: "middle", size: 11)
                if lastDay != day {
                    out += text(x, y + 32, dateLabel(day), anchor: "middle", size: 10, fill: "#555")
                    lastDay = day
                }
                tick += step
            }
        }
        let zone = report.timeZone.map { "local time, \($0)" } ?? "local time"
        return out + text(width - right, y + 48, zone, anchor: "end", size: 10, fill: "#777")
    }

    /// The device's UTC offset at `utc`: that of the latest sample or bucket at or before it.
    private func localOffset(at utc: Double) -> Int? {
        var low = 0
        var high = zoneTimeline.count
        while low < high {
            let mid = (low + high) / 2
            if zoneTimeline[mid].0 <= utc { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? nil : zoneTimeline[low - 1].1
    }

    private func legend(y: Double) -> String {
        var out = ""
        var x = left
        let names =
            Array(report.apps.prefix(consumersShown).map(\.name))
            + (report.apps.count > consumersShown ? ["other"] : [])
        for (index, name) in names.enumerated() {
            out += rect(x, y - 10, 12, 12, fill: color(index, of: min(consumersShown, report.apps.count)))
            let label = name.count > 34 ? String(name.prefix(33)) + "…" : name
            out += text(x + 17, y, label, size: 11)
            x += 24 + Double(label.count) * 6.6
            if x > width - 200 {
                x = left
                out += ""
            }
        }
        out += line(left, y + 16, left + 22, y + 16, stroke: "#1f5fa8", width: 2)
        out += text(left + 28, y + 20, "battery level", size: 11)
        out += rect(left + 120, y + 10, 14, 12, fill: "#dff3dc")
        out += text(left + 140, y + 20, "charging", size: 11)
        out += rect(left + 210, y + 10, 14, 12, fill: "#eef6ec")
        out += text(left + 230, y + 20, "on charger, not charging", size: 11)
        out += rect(left + 390, y + 13, 14, 7, fill: "#f2b705")
        out += text(left + 410, y + 20, "screen on", size: 11)
        return out
    }

    // MARK: - Text

    private func title() -> String {
        let device = report.device.map { "device \($0)" } ?? "unknown device"
        let build = report.osBuild.map { ", build \($0)" } ?? ""
        return "PowerLog: battery and energy, \(device)\(build)"
    }

    private func subtitle() -> String {
        guard let range = report.timeRange else { return "no timed rows" }
        return "\(PowerLogRenderer.time(range.start)) → \(PowerLogRenderer.time(range.end)); times are wall clock "
            + "(PowerLog clock + per-row offset)"
    }

    private func dateLabel(_ day: Int64) -> String {
        // Days far outside any calendar (a hostile timestamp) are clamped by CivilDate: ±2.7 million years.
        let date = CivilDate(daysSince1970: Int(clamping: day))
        return "\(date.year)-\(pad(date.month))-\(pad(date.day))"
    }

    // MARK: - SVG primitives

    private func color(_ index: Int, of shown: Int) -> String {
        index < shown && index < Self.palette.count ? Self.palette[index] : "#bab0ac"
    }

    /// A round grid step (1, 2, 2.5 or 5 × 10ⁿ) giving at most five steps up to `peak`.
    private func niceStep(_ peak: Double) -> Double {
        guard peak > 0, peak.isFinite else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= peak / 5 { magnitude *= 10 }
        while magnitude > peak / 5 && magnitude > 1e-9 { magnitude /= 10 }
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where peak / (factor * magnitude) <= 5 { return factor * magnitude }
        return 10 * magnitude
    }

    private func compact(_ value: Double) -> String {
        guard value.isFinite, value < 1e15 else { return PowerLogRenderer.decimal(value) }
        if value >= 1_000_000 { return Formatting.oneDecimal(value / 1_000_000) + "M" }
        if value >= 1000 {
            let thousands = value / 1000
            return (thousands == thousands.rounded() ? String(Int(thousands)) : Formatting.oneDecimal(thousands)) + "k"
        }
        return String(Int(saturating: value))
    }

    private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// A coordinate; anything off the page (a hostile timestamp's position) is pinned to it.
    private func fmt(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return Formatting.oneDecimal(min(max(value, -1e6), 1e6))
    }

    private func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1)
        -> String
    {
        "<line x1=\"\(fmt(x1))\" y1=\"\(fmt(y1))\" x2=\"\(fmt(x2))\" y2=\"\(fmt(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(width)\"/>\n"
    }

    private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String) -> String {
        "<rect x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(w))\" height=\"\(fmt(h))\" fill=\"\(fill)\"/>\n"
    }

    private func text(
        _ x: Double,
        _ y: Double,
        _ content: String,
        anchor: String = "start",
        size: Double = 12,
        weight: String = "normal",
        fill: String = "#222"
    ) -> String {
        "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" text-anchor=\"\(anchor)\" font-size=\"\(fmt(size))\" "
            + "font-weight=\"\(weight)\" fill=\"\(fill)\">\(escape(content))</text>\n"
    }

    /// Consumer names come from the log: escaped as the fleet report's HTML escapes them (controls shown too).
    private func escape(_ value: String) -> String { HTMLText.escaped(value) }
}
