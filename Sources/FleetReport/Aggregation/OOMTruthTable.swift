import APMInspectCore
import JetsamParsing
import MetricKitParsing

/// The OOM truth table as reports arrive: counts per app, version and device, and the JetsamEvent kills kept
/// apart until the end, when every report that could tie them to a version has been read.
///
/// A JetsamEvent names the killed process (name and binary UUID) but no app version. A kill is tied to a version
/// by its UUID when a report of the app that names its version lists the same main binary UUID; else by its
/// process name when reports of that process name a version on the same device model within
/// ``nameLinkWindowSeconds`` of the kill. Kills are kept per (UUID, name, device, day, cause class), so memory
/// grows with distinct processes and days, not with reports; every choice below is by value, so the table does
/// not depend on the order reports arrive in.
struct OOMTruthTable: Sendable {
    struct RowKey: Hashable {
        var app: String
        var version: String
        var device: String
    }

    struct AppVersion: Equatable {
        var app: String
        var version: String
    }

    struct NameKey: Hashable {
        var process: String
        var device: String
    }

    /// When an app version's reports from one process name on one device model were written.
    struct Span {
        var app: String
        var first: Double
        var last: Double
    }

    struct Kill: Hashable {
        var uuid: String?
        var name: String?
        var device: String
        /// Days since 1970 (UTC), nil for an undated JetsamEvent.
        var day: Int?
        var atItsLimit: Bool
    }

    /// How far from an app version's reports on a device model a kill of its process name is tied to it.
    static let nameLinkWindowSeconds = 7.0 * 86_400
    /// Versions followed per process name and device model.
    static let maxVersionsPerName = 64
    static let jetsamSource = "jetsamEvent"
    /// MetricKit exit reasons that are terminations other than an OOM (crashes and normal exits are not).
    static let otherExitReasons: Set<String> = [
        "watchdog", "cPUResourceLimit", "memoryPressure", "suspendedWithLockedFile", "backgroundTaskAssertionTimeout",
    ]

    let capacity: Int
    private var rows: [RowKey: FleetSummary.OOMTruthRow] = [:]
    private var ungrouped = 0
    private var uuids: [String: AppVersion] = [:]
    private var names: [NameKey: [String: Span]] = [:]
    private var kills: [Kill: Int] = [:]

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Learns that the binary `uuid` is `version` of `app`.
    mutating func learn(uuid: String, app: String, version: String) {
        let new = AppVersion(app: app, version: version)
        if let known = uuids[uuid] {
            // One binary is one version; should two reports disagree, the greater wins, whatever their order.
            if Self.precedes(known, new) { uuids[uuid] = new }
        } else if uuids.count < capacity {
            uuids[uuid] = new
        }
    }

    /// Learns what a report with a version says of its app: its binary UUID, and its process on its device.
    mutating func learn(_ context: FleetEvent.Context) {
        guard let version = FleetAggregator.version(context.appVersion) else { return }
        let app = FleetAggregator.app(of: context)
        if let uuid = context.binaryUUID { learn(uuid: uuid, app: app, version: version) }
        guard let process = context.process, !process.isEmpty, let device = context.device, !device.isEmpty,
            let seconds = context.date?.secondsSince1970, seconds.isFinite
        else { return }
        let key = NameKey(process: process, device: device)
        guard var spans = names[key] ?? (names.count < capacity ? [:] : nil) else { return }
        if var span = spans[version] {
            span.first = min(span.first, seconds)
            span.last = max(span.last, seconds)
            if app.utf8.lexicographicallyPrecedes(span.app.utf8) { span.app = app }
            spans[version] = span
        } else if spans.count < Self.maxVersionsPerName {
            spans[version] = Span(app: app, first: seconds, last: seconds)
        }
        names[key] = spans
    }

    private static func precedes(_ lhs: AppVersion, _ rhs: AppVersion) -> Bool {
        if lhs.version != rhs.version { return VersionOrder.precedes(lhs.version, rhs.version) }
        return lhs.app.utf8.lexicographicallyPrecedes(rhs.app.utf8)
    }

    /// Keeps the kills of a JetsamEvent (counted once per incident by the caller) until the end.
    mutating func add(_ oom: FleetEvent.OOM) {
        let device = FleetAggregator.value(oom.evidence.product)
        let day = oom.date.flatMap { DayCounts.day(ofSecondsSince1970: $0.secondsSince1970) }
        for process in oom.killedApps {
            let kill = Kill(
                uuid: process.uuid,
                name: process.name,
                device: device,
                day: day,
                atItsLimit: process.atItsLimit
            )
            if let count = kills[kill] {
                kills[kill] = FleetAggregator.adding(count, 1)
            } else if kills.count < capacity {
                kills[kill] = 1
            } else {
                ungrouped = FleetAggregator.adding(ungrouped, 1)
            }
        }
    }

    /// What a MetricKit entry says: memory exceptions are confirmed OOMs, memory-limit exits inferred ones, the
    /// other termination exits other terminations.
    mutating func add(_ figures: FleetEvent.MetricKitFigures) {
        if let uuid = figures.binaryUUID, let version = FleetAggregator.version(figures.version) {
            learn(uuid: uuid, app: figures.bundleId.flatMap { $0.isEmpty ? nil : $0 } ?? "?", version: version)
        }
        let key = RowKey(
            app: figures.bundleId.flatMap { $0.isEmpty ? nil : $0 } ?? "?",
            version: FleetAggregator.version(figures.version) ?? "?",
            device: FleetAggregator.value(figures.device)
        )
        let source = FileKind.metrickit.rawValue
        let exceptions = max(0, figures.diagnostics[MetricKitDiagnostic.Kind.memoryException.rawValue] ?? 0)
        var limitExits = 0
        var otherExits = 0
        for (reason, count) in figures.exits {
            guard let dot = reason.firstIndex(of: ".") else { continue }
            let name = String(reason[reason.index(after: dot)...])
            let clamped = Int(clamping: max(0, count))
            if name == "memoryResourceLimit" {
                limitExits = FleetAggregator.adding(limitExits, clamped)
            } else if Self.otherExitReasons.contains(name) {
                otherExits = FleetAggregator.adding(otherExits, clamped)
            }
        }
        update(key, count: FleetAggregator.adding(FleetAggregator.adding(exceptions, limitExits), otherExits)) { row in
            row.confirmed.add(exceptions, from: source)
            row.inferred.add(limitExits, from: source)
            row.otherTerminations.add(otherExits, from: source)
        }
    }

    /// A crash reporter's OOM (inferred) or a watchdog or resource kill (another termination).
    mutating func add(termination context: FleetEvent.Context, inferredOOM: Bool, source: String) {
        let key = RowKey(
            app: FleetAggregator.app(of: context),
            version: FleetAggregator.version(context.appVersion) ?? "?",
            device: FleetAggregator.value(context.device)
        )
        update(key, count: 1) { row in
            if inferredOOM { row.inferred.add(1, from: source) } else { row.otherTerminations.add(1, from: source) }
        }
    }

    private mutating func update(_ key: RowKey, count: Int, _ change: (inout FleetSummary.OOMTruthRow) -> Void) {
        guard count > 0 else { return }
        if var row = rows[key] {
            change(&row)
            rows[key] = row
        } else if rows.count < capacity {
            var row = FleetSummary.OOMTruthRow(app: key.app, version: key.version, device: key.device)
            change(&row)
            rows[key] = row
        } else {
            ungrouped = FleetAggregator.adding(ungrouped, count)
        }
    }

    /// The version a kill's process name points to on its device: the version whose reports there are nearest
    /// the kill (within the window; a tie goes to the newer version), or for an undated kill the one version
    /// reported there.
    private func nameLink(_ kill: Kill) -> AppVersion? {
        guard let name = kill.name, !name.isEmpty, let spans = names[NameKey(process: name, device: kill.device)]
        else { return nil }
        guard let day = kill.day else {
            guard spans.count == 1, let only = spans.first else { return nil }
            return AppVersion(app: only.value.app, version: only.key)
        }
        // The kill's day, whole: a report that day is at distance 0.
        let start = Double(day) * 86_400
        let end = start + 86_400
        var best: (distance: Double, link: AppVersion)?
        for (version, span) in spans {
            let distance = max(0, span.first - end, start - span.last)
            guard distance <= Self.nameLinkWindowSeconds else { continue }
            let link = AppVersion(app: span.app, version: version)
            if let current = best {
                if distance > current.distance { continue }
                if distance == current.distance, !Self.precedes(current.link, link) { continue }
            }
            best = (distance, link)
        }
        return best?.link
    }

    /// The table: the rows with the kills tied in, the device limits beside them; and the kills of apps left out.
    func summary(limits: [MemoryLimitRow]) -> (rows: [FleetSummary.OOMTruthRow], ungrouped: Int, unlinked: Int) {
        var table = self
        var unlinked = 0
        for (kill, count) in kills {
            let link: (AppVersion, String)?
            if let uuid = kill.uuid, let known = uuids[uuid] {
                link = (known, "uuid")
            } else if let known = nameLink(kill) {
                link = (known, "name")
            } else if kill.atItsLimit {
                link = (AppVersion(app: FleetAggregator.value(kill.name), version: "?"), "none")
            } else {
                link = nil
            }
            guard let (appVersion, how) = link else {
                unlinked = FleetAggregator.adding(unlinked, count)
                continue
            }
            let key = RowKey(app: appVersion.app, version: appVersion.version, device: kill.device)
            table.update(key, count: count) { row in
                if kill.atItsLimit {
                    row.confirmed.add(count, from: Self.jetsamSource)
                } else {
                    row.otherTerminations.add(count, from: Self.jetsamSource)
                }
                switch how {
                case "uuid": row.jetsamLinks.uuid = FleetAggregator.adding(row.jetsamLinks.uuid, count)
                case "name": row.jetsamLinks.name = FleetAggregator.adding(row.jetsamLinks.name, count)
                default: row.jetsamLinks.none = FleetAggregator.adding(row.jetsamLinks.none, count)
                }
            }
        }
        let deviceLimits = Self.foregroundLimits(limits)
        let rows = table.rows.values.map { row -> FleetSummary.OOMTruthRow in
            var row = row
            row.memoryLimitMB = deviceLimits[row.device]
            return row
        }.sorted { a, b in
            if a.app != b.app { return a.app.utf8.lexicographicallyPrecedes(b.app.utf8) }
            if a.version != b.version {
                // Newest first; `?` last.
                if a.version == "?" || b.version == "?" { return b.version == "?" }
                return VersionOrder.precedes(b.version, a.version)
            }
            return a.device.utf8.lexicographicallyPrecedes(b.device.utf8)
        }
        return (rows, table.ungrouped, unlinked)
    }

    /// Per device model, the median foreground limit of its OS build with the most reports (ties: the greater
    /// OS build text).
    static func foregroundLimits(_ rows: [MemoryLimitRow]) -> [String: Double] {
        var best: [String: MemoryLimitRow] = [:]
        for row in rows where row.foregroundLimitMB != nil {
            if let current = best[row.product] {
                if row.reports < current.reports { continue }
                if row.reports == current.reports,
                    !(current.osBuild ?? "").utf8.lexicographicallyPrecedes((row.osBuild ?? "").utf8)
                {
                    continue
                }
            }
            best[row.product] = row
        }
        return best.compactMapValues { $0.foregroundLimitMB?.median }
    }
}
