/// Battery samples folded in time order, for a summary read: sessions, drain per screen state and the ranges the
/// text shows, computed as ``PowerLogAnalysis`` computes them, with an evenly thinned set of samples for the plot
/// and the most recent sessions.
struct BatteryFold {
    typealias Sample = PowerLogReport.Battery.Sample
    typealias Session = PowerLogReport.Battery.Session
    typealias Range = PowerLogReport.Abridgement.Range

    let maxGap: Double
    let keptSamples: Int
    let keptSessions: Int
    private(set) var count = 0
    /// A sample earlier than the one before: the rows must be read again in time order.
    private(set) var outOfOrder = false
    /// False for rows SQLite sorted: taken in the order given (a value SQLite and Swift read as different numbers
    /// cannot make the sorted pass fail).
    var requiresOrder = true
    private var previous: Sample?
    private var current: Session?
    private var sessions: [Session] = []
    private var sessionCount = 0
    private var thinned: [Sample] = []
    /// Every `stride`-th sample is kept; doubled (and the kept ones halved) when the set is full.
    private var stride = 1
    private var levels: Range?
    private var temperatures: Range?
    private var voltages: Range?
    private var drainTally = DrainTally()
    private var screenIndex = 0

    init(limits: PowerLogSummaryLimits, maxGap: Double) {
        self.maxGap = maxGap
        keptSamples = max(2, limits.keptSamples)
        keptSessions = max(1, limits.keptRecent)
    }

    /// Adds a sample with a level; `screen` are the screen transitions in time order.
    mutating func add(_ sample: Sample, screen: [ScreenFold.Transition]) {
        guard !outOfOrder, sample.bestLevel != nil else { return }
        if requiresOrder, let previous, sample.at.raw < previous.at.raw {
            outOfOrder = true
            return
        }
        if count % stride == 0 {
            thinned.append(sample)
            if thinned.count >= keptSamples {
                thinned = thinned.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                stride *= 2
            }
        }
        count += 1
        levels = Range.including(sample.level ?? sample.rawLevel, in: levels)
        temperatures = Range.including(sample.temperatureCelsius, in: temperatures)
        voltages = Range.including(sample.voltageMillivolts, in: voltages)
        session(sample)
        if let previous { drain(previous, sample, screen: screen) }
        previous = sample
    }

    private static func kind(_ sample: Sample) -> Session.Kind {
        if sample.isCharging == true { return .charging }
        if sample.externalConnected == true { return .onCharger }
        return .discharging
    }

    private mutating func session(_ sample: Sample) {
        let sampleKind = Self.kind(sample)
        let gap = previous.map { sample.at.utcSeconds - $0.at.utcSeconds } ?? 0
        if var session = current, session.kind == sampleKind, gap <= maxGap {
            session.end = sample.at
            session.endLevel = sample.level ?? sample.rawLevel
            session.samples += 1
            current = session
            return
        }
        if let session = current { keep(session) }
        let start = (gap <= maxGap ? previous?.at : nil) ?? sample.at
        current = .init(
            kind: sampleKind,
            start: start,
            end: sample.at,
            startLevel: (gap <= maxGap ? previous?.level : nil) ?? sample.level ?? sample.rawLevel,
            endLevel: sample.level ?? sample.rawLevel,
            samples: 1
        )
    }

    private mutating func keep(_ session: Session) {
        sessionCount += 1
        sessions.append(session)
        if sessions.count >= 2 * keptSessions { sessions.removeFirst(sessions.count - keptSessions) }
    }

    private mutating func drain(_ a: Sample, _ b: Sample, screen: [ScreenFold.Transition]) {
        let seconds = b.at.utcSeconds - a.at.utcSeconds
        guard seconds > 0, seconds <= maxGap, Self.kind(a) == .discharging, Self.kind(b) == .discharging,
            let from = a.bestLevel, let to = b.bestLevel
        else { return }
        while screenIndex + 1 < screen.count, screen[screenIndex + 1].raw <= a.at.raw { screenIndex += 1 }
        let state: Bool? =
            screen.indices.contains(screenIndex) && screen[screenIndex].raw <= a.at.raw ? screen[screenIndex].isOn : nil
        drainTally.add(seconds: seconds, from: from, to: to, screenOn: state)
    }

    /// The battery section and the figures of every sample; nil without samples.
    mutating func finish(source: String, gauge: (cycleCount: Int64?, design: Int64?, max: Int64?)) -> (
        PowerLogReport.Battery, Abridged
    )? {
        guard count > 0 else { return nil }
        if let session = current { keep(session) }
        current = nil
        if let last = previous, thinned.last != last { thinned.append(last) }
        let battery = PowerLogReport.Battery(
            source: source,
            samples: thinned,
            sessions: Array(sessions.suffix(keptSessions)),
            drain: drainTally.drain,
            cycleCount: gauge.cycleCount,
            designCapacityMAh: gauge.design,
            maxCapacityMAh: gauge.max
        )
        let figures = Abridged(
            samples: count,
            levels: levels,
            temperatures: temperatures,
            voltages: voltages,
            sessions: sessionCount
        )
        return (battery, figures)
    }

    /// What the thinned lists no longer show.
    struct Abridged {
        var samples: Int
        var levels: Range?
        var temperatures: Range?
        var voltages: Range?
        var sessions: Int
    }
}
