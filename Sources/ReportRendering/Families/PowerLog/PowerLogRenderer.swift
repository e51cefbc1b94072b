import APMInspectCore
import PowerLogReading

/// The human output for PowerLog: the `inspect` overview and the `energy` report.
package enum PowerLogRenderer {
    /// The `inspect` overview: device, OS, logging mode, time range, tables and the top energy consumers.
    package static func overview(_ report: PowerLogReport, file: String) -> String {
        var out = "PowerLog  \(file)\n"
        out += InspectionRenderer.keyValues(headerFields(report))
        if !report.apps.isEmpty {
            out += "\nTop energy consumers (\(report.energy?.unit ?? "PowerLog energy units"))\n"
            out += ranking(report, limit: 5)
            out += "  (apm-inspect energy \(file) for battery, run time, exits and the plot)\n"
        }
        return out
    }

    /// The `energy` report: ranking, components, battery, background location, run time, exits, coalitions.
    package static func energy(_ report: PowerLogReport, diagnostics: [Diagnostic], top: Int) -> String {
        let files = report.sources.map(\.path)
        var out = "PowerLog  \(files.count == 1 ? files.joined() : "\(files.count) files merged")\n"
        out += InspectionRenderer.keyValues(headerFields(report))
        out += energySection(report, top: top)
        out += batterySection(report)
        out += backgroundLocationSection(report, top: top)
        out += runTimeSection(report, top: top)
        out += exitsSection(report, top: top)
        out += coalitionSection(report, top: top)
        if !diagnostics.isEmpty {
            out += "\nDiagnostics\n"
            for diagnostic in diagnostics {
                var line = "  \(diagnostic.severity.rawValue): \(diagnostic.message)"
                if let location = diagnostic.location { line += "  [\(location)]" }
                out += line + "\n"
            }
        }
        return out
    }

    // MARK: - Sections

    package static func headerFields(_ report: PowerLogReport) -> [(String, String)] {
        var fields: [(String, String)] = []
        fields.append(("Device", report.device ?? "unknown"))
        fields.append(("OS build", report.osBuild ?? "unknown"))
        if report.loggingMode != nil || report.storageVersion != nil {
            let mode = report.loggingMode.map { "\($0) mode" } ?? "mode unknown"
            fields.append(("Logging", mode + (report.storageVersion.map { ", storage version \($0)" } ?? "")))
        }
        if let range = report.timeRange {
            fields.append(("Time range", "\(time(range.start)) → \(time(range.end))  (\(duration(range.seconds)))"))
        } else {
            fields.append(("Time range", "no timed rows"))
        }
        if let zone = report.timeZone { fields.append(("Time zone", zone)) }
        let offsets = report.timeOffsets.map(\.systemSeconds)
        if let low = offsets.min(), let high = offsets.max() {
            let text =
                low == high
                ? "\(signedSeconds(low))"
                : "\(signedSeconds(offsets.first ?? low)) … \(signedSeconds(offsets.last ?? high)), \(offsets.count) offset rows"
            fields.append(("Clock offset", text + " (wall clock = PowerLog clock + offset, per row)"))
        }
        let withRows = report.tables.filter { $0.rows > 0 }.count
        fields.append(("Tables", "\(report.tables.count) (\(withRows) with rows)"))
        if let energy = report.energy {
            fields.append(("Energy table", "\(energy.source) (\(energy.hourlyBuckets) hourly buckets)"))
        }
        return fields
    }

    package static func ranking(_ report: PowerLogReport, limit: Int) -> String {
        var table = TextTable(
            headers: ["#", "CONSUMER", "KIND", "ENERGY", "SHARE", "MAIN COMPONENTS"],
            alignments: [.right, .left, .left, .right, .right, .left]
        )
        table.wholeColumns = [5]
        for (index, app) in report.apps.prefix(limit).enumerated() {
            let components = app.components.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3)
                .filter { $0.value > 0 }
                .map { "\($0.key) \(percent(app.energy > 0 ? $0.value / app.energy : 0))" }
                .joined(separator: ", ")
            table.append([
                String(index + 1), app.displayName.map { "\(app.name) (\($0))" } ?? app.name, app.kind.rawValue,
                energyText(app.energy), percent(app.share), components,
            ])
        }
        return table.render(indent: "  ")
    }

    private static func energySection(_ report: PowerLogReport, top: Int) -> String {
        guard let energy = report.energy else { return "\nEnergy\n  no energy table with rows in this history\n" }
        var out = "\nEnergy by consumer (\(energy.unit); Apple does not document the unit)\n"
        out += ranking(report, limit: top)
        if report.apps.count > top { out += "  … \(report.apps.count - top) more (--top N, or --format json)\n" }
        out += "  total \(energyText(energy.total)) over \(energy.hourlyBuckets) hourly buckets"
        out += energy.dailyBucketsUsed > 0 ? " and \(energy.dailyBucketsUsed) daily ones\n" : "\n"
        out += hourlySection(energy)
        out += "\nEnergy by component\n"
        var table = TextTable(headers: ["COMPONENT", "ENERGY", "SHARE"], alignments: [.left, .right, .right])
        for component in energy.components {
            table.append([component.component.rawValue, energyText(component.energy), percent(component.share)])
        }
        out += table.render(indent: "  ")
        return out
    }

    /// Hourly buckets in time order (at most 48; longer histories are summed per local day).
    private static func hourlySection(_ energy: PowerLogReport.EnergySummary) -> String {
        let buckets = energy.buckets
        guard !buckets.isEmpty else { return "" }
        var table = TextTable(
            headers: ["START", "HOURS", "ENERGY", "TOP CONSUMER", "TOP COMPONENT"],
            alignments: [.left, .right, .right, .left, .left]
        )
        func row(
            _ start: String,
            _ seconds: Double,
            _ total: Double,
            _ consumers: [String: Double],
            _ components: [String: Double]
        ) {
            let consumer = consumers.max { ($0.value, $1.key) < ($1.value, $0.key) }
            let component = components.max { ($0.value, $1.key) < ($1.value, $0.key) }
            table.append([
                start, whole(seconds / 3600), energyText(total),
                consumer.map { "\($0.key) \(percent(total > 0 ? $0.value / total : 0))" } ?? "",
                component.map { "\($0.key) \(percent(total > 0 ? $0.value / total : 0))" } ?? "",
            ])
        }
        if buckets.count <= 48 {
            for bucket in buckets {
                var consumers: [String: Double] = [:]
                for consumer in bucket.consumers { consumers[consumer.name] = consumer.energy }
                row(time(bucket.start), bucket.intervalSeconds, bucket.total, consumers, bucket.components)
            }
            return "\nEnergy by bucket\n" + table.render(indent: "  ")
        }
        var days: [(String, Double, Double, [String: Double], [String: Double])] = []
        for bucket in buckets {
            let day = String(time(bucket.start).prefix(10))
            if days.last?.0 != day { days.append((day, 0, 0, [:], [:])) }
            let last = days.count - 1
            days[last].1 += bucket.intervalSeconds
            days[last].2 += bucket.total
            for consumer in bucket.consumers { days[last].3[consumer.name, default: 0] += consumer.energy }
            for (component, value) in bucket.components { days[last].4[component, default: 0] += value }
        }
        for day in days { row(day.0, day.1, day.2, day.3, day.4) }
        return "\nEnergy by day (\(buckets.count) buckets)\n" + table.render(indent: "  ")
    }

    private static func batterySection(_ report: PowerLogReport) -> String {
        guard let battery = report.battery else { return "\nBattery\n  no battery samples\n" }
        // A summary read thins the samples and keeps the latest sessions: its figures cover every sample.
        let abridged = report.abridged
        var out = "\nBattery (\(abridged?.batterySamples ?? battery.samples.count) samples from \(battery.source))\n"
        var fields: [(String, String)] = []
        if let first = battery.samples.first, let last = battery.samples.last {
            fields.append(
                (
                    "Level",
                    "\(level(first.level ?? first.rawLevel)) at \(time(first.at)) → \(level(last.level ?? last.rawLevel)) at \(time(last.at))"
                )
            )
        }
        if let range = abridged.map({ $0.batteryLevel }) ?? span(battery.samples.compactMap { $0.level ?? $0.rawLevel })
        {
            fields.append(("Range", "\(level(range.low)) … \(level(range.high))"))
        }
        if let range = abridged.map({ $0.batteryTemperatureCelsius })
            ?? span(battery.samples.compactMap(\.temperatureCelsius))
        {
            fields.append(("Temperature", "\(decimal(range.low)) … \(decimal(range.high)) °C"))
        }
        if let range = abridged.map({ $0.batteryVoltageMillivolts })
            ?? span(battery.samples.compactMap(\.voltageMillivolts))
        {
            fields.append(("Voltage", "\(whole(range.low)) … \(whole(range.high)) mV"))
        }
        if let cycles = battery.cycleCount { fields.append(("Cycle count", String(cycles))) }
        if let design = battery.designCapacityMAh, let maximum = battery.maxCapacityMAh {
            let health = decimal(Double(maximum) / Double(design) * 100)
            fields.append(("Capacity", "\(maximum) mAh of \(design) mAh design (\(health) %)"))
        }
        let drain = battery.drain
        fields.append(("Drain, screen on", rate(drain.screenOn)))
        fields.append(("Drain, screen off", rate(drain.screenOff)))
        if drain.screenUnknown != nil { fields.append(("Drain, screen ?", rate(drain.screenUnknown))) }
        out += InspectionRenderer.keyValues(fields)
        if !battery.sessions.isEmpty {
            out += "\n  Sessions\n"
            var table = TextTable(
                headers: ["KIND", "START", "END", "DURATION", "LEVEL", "RATE"],
                alignments: [.left, .left, .left, .right, .left, .right]
            )
            for session in battery.sessions {
                table.append([
                    sessionName(session.kind), time(session.start), time(session.end),
                    duration(session.durationSeconds), "\(level(session.startLevel)) → \(level(session.endLevel))",
                    session.percentPerHour.map { signed($0) + " %/h" } ?? "",
                ])
            }
            out += table.render(indent: "  ")
            let sessionCount = abridged?.batterySessions ?? battery.sessions.count
            if sessionCount > battery.sessions.count {
                out += "  … \(sessionCount - battery.sessions.count) earlier sessions (--format json lists all)\n"
            }
        }
        return out
    }

    private static func span(_ values: [Double]) -> PowerLogReport.Abridgement.Range? {
        guard let low = values.min(), let high = values.max() else { return nil }
        return PowerLogReport.Abridgement.Range(low: low, high: high)
    }

    private static func backgroundLocationSection(_ report: PowerLogReport, top: Int) -> String {
        var out = "\nBackground location\n"
        let folded = report.abridged?.backgroundLocationApps
        guard !report.backgroundLocation.isEmpty || folded?.isEmpty == false else {
            let looked = report.tables.contains {
                $0.name.hasPrefix("PLBLMAccountingService") || $0.name.hasPrefix("PLAppTimeService")
            }
            return out + (looked ? "  no app used location in the background\n" : "  no table records it\n")
        }
        var byApp: [String: (count: Int, energy: Double, seconds: Double, first: PowerLogTime, last: PowerLogTime)] =
            [:]
        for use in report.backgroundLocation {
            var entry = byApp[use.app] ?? (0, 0, 0, use.start, use.start)
            entry.count += 1
            entry.energy += use.energy ?? 0
            entry.seconds += use.seconds ?? 0
            entry.last = use.start
            byApp[use.app] = entry
        }
        for app in folded ?? [] { byApp[app.app] = (app.buckets, app.energy, app.seconds, app.first, app.last) }
        var table = TextTable(
            headers: ["APP", "BUCKETS", "ENERGY", "SECONDS", "FIRST", "LAST"],
            alignments: [.left, .right, .right, .right, .left, .left]
        )
        for (app, entry) in byApp.sorted(by: {
            ($0.value.energy + $0.value.seconds, $1.key) > ($1.value.energy + $1.value.seconds, $0.key)
        })
        .prefix(top) {
            table.append([
                app, String(entry.count), entry.energy > 0 ? energyText(entry.energy) : "",
                entry.seconds > 0 ? decimal(entry.seconds) : "", time(entry.first), time(entry.last),
            ])
        }
        out += table.render(indent: "  ")
        return out
    }

    private static func runTimeSection(_ report: PowerLogReport, top: Int) -> String {
        guard !report.appRunTime.isEmpty else { return "" }
        var out = "\nApp run time (\(report.appRunTime.count) apps)\n"
        var table = TextTable(
            headers: ["APP", "FOREGROUND", "BACKGROUND", "BG AUDIO", "BG LOCATION"],
            alignments: [.left, .right, .right, .right, .right]
        )
        for app in report.appRunTime.prefix(top) {
            table.append([
                app.displayName.map { "\(app.bundleID) (\($0))" } ?? app.bundleID, duration(app.foregroundSeconds),
                duration(app.backgroundSeconds),
                duration(app.backgroundAudioSeconds), duration(app.backgroundLocationSeconds),
            ])
        }
        out += table.render(indent: "  ")
        return out
    }

    private static func exitsSection(_ report: PowerLogReport, top: Int) -> String {
        let hasTable = report.tables.contains { $0.name.hasPrefix("PLProcessMonitorAgent_EventPoint_ProcessExit") }
        guard hasTable || !report.processExits.isEmpty else { return "" }
        // A summary read keeps the latest exits and counts them all.
        var out = "\nProcess exits (\(report.abridged?.processExits ?? report.processExits.count))\n"
        guard !report.processExits.isEmpty else { return out + "  none recorded\n" }
        var counts: [String: Int] = [:]
        for exit in report.processExits { counts[exit.reason.category.rawValue, default: 0] += 1 }
        if let folded = report.abridged?.exitCategories { counts = folded }
        out +=
            "  "
            + counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ") + "\n"
        var table = TextTable(
            headers: ["TIME", "PROCESS", "PID", "CATEGORY", "NAMESPACE", "CODE", "MEANING"],
            alignments: [.left, .left, .right, .left, .left, .left, .left]
        )
        for exit in report.processExits.suffix(top) {
            table.append([
                time(exit.at), exit.process ?? "?", exit.pid.map(String.init) ?? "", exit.reason.category.rawValue,
                exit.reason.namespaceName ?? exit.reason.namespace.map(String.init) ?? "", exit.reason.code ?? "",
                exit.reason.codeName ?? "",
            ])
        }
        out += table.render(indent: "  ")
        return out
    }

    private static func coalitionSection(_ report: PowerLogReport, top: Int) -> String {
        guard !report.coalitions.isEmpty else { return "" }
        var out = "\nCPU and disk by coalition (\(report.coalitions.count))\n"
        var table = TextTable(
            headers: ["COALITION", "CPU", "GPU", "READ", "WRITTEN"],
            alignments: [.left, .right, .right, .right, .right]
        )
        for coalition in report.coalitions.prefix(top) {
            table.append([
                coalition.name, decimal(coalition.cpuSeconds) + " s",
                decimal(coalition.gpuSeconds) + " s", Formatting.megabytes(coalition.bytesRead),
                Formatting.megabytes(coalition.bytesWritten),
            ])
        }
        out += table.render(indent: "  ")
        return out
    }

    // MARK: - Formatting

    /// `2021-11-02 06:17 -04:00`: local wall-clock time to the minute, with its offset.
    package static func time(_ value: PowerLogTime) -> String {
        guard let wall = value.wallClock else { return "raw \(value.raw)" }
        let text = wall.iso8601
        // `2021-11-02T06:17:41.123-04:00` → date, hour:minute, offset.
        let parts = text.split(separator: "T", maxSplits: 1)
        guard parts.count == 2 else { return text }
        let clock = parts[1]
        let offset = clock.count >= 6 ? String(clock.suffix(6)) : ""
        return "\(parts[0]) \(clock.prefix(5)) \(offset)"
    }

    /// One decimal (`70.8`); values no integer can hold (hostile rows) are printed as they are.
    package static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        return abs(value) < 1e15 ? Formatting.oneDecimal(value) : String(value)
    }

    /// Without decimals when integral (`64`), else one decimal.
    package static func whole(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        return abs(value) < 1e15 ? Formatting.median(value) : String(value)
    }

    package static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e15 else { return "?" }
        if seconds < 60 { return "\(Int(saturating: seconds.rounded())) s" }
        let minutes = Int(saturating: (seconds / 60).rounded())
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h \(minutes % 60 < 10 ? "0" : "")\(minutes % 60) min" }
        return "\(hours / 24) d \(hours % 24) h"
    }

    package static func energyText(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 9e18 else { return "?" }
        return Formatting.grouped(Int64(saturating: value.rounded()))
    }

    package static func percent(_ fraction: Double) -> String { decimal(fraction * 100) + " %" }

    private static func level(_ value: Double?) -> String { value.map { whole($0) + " %" } ?? "?" }

    private static func signed(_ value: Double) -> String { (value > 0 ? "+" : "") + decimal(value) }

    private static func signedSeconds(_ value: Double) -> String { signed(value) + " s" }

    private static func rate(_ rate: PowerLogReport.Battery.Drain.Rate?) -> String {
        guard let rate else { return "no discharging samples" }
        return
            "\(decimal(rate.percentPerHour)) %/h (\(decimal(rate.percent)) % over \(duration(rate.seconds)))"
    }

    private static func sessionName(_ kind: PowerLogReport.Battery.Session.Kind) -> String {
        switch kind {
        case .charging: "charging"
        case .onCharger: "on charger"
        case .discharging: "discharging"
        }
    }
}
