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
        if let previous { drainTally.add(previous, sample, maxGap: maxGap, screen: screen) }
        previous = sample
    }

    private mutating func session(_ sample: Sample) {
        if let ended = Session.advance(&current, previous: previous, with: sample, maxGap: maxGap) { keep(ended) }
    }

    private mutating func keep(_ session: Session) {
        sessionCount += 1
        sessions.append(session)
        if sessions.count >= 2 * keptSessions { sessions.removeFirst(sessions.count - keptSessions) }
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
