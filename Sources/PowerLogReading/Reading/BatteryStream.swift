/// Battery samples in time order, for a streamed read: each sample and each ended session goes to the spool as it
/// comes, and drain is tallied, exactly as ``PowerLogAnalysis`` computes them from the full list.
struct BatteryStream {
    typealias Sample = PowerLogReport.Battery.Sample
    typealias Session = PowerLogReport.Battery.Session

    let spool: PowerLogBatterySpool
    let maxGap: Double
    /// False for rows SQLite sorted: taken in the order given.
    var requiresOrder = true
    /// A sample earlier than the one before: the rows must be read again in time order.
    private(set) var outOfOrder = false
    /// Samples with a level, spooled.
    private(set) var count = 0
    private var previous: Sample?
    private var current: Session?
    private var drain = DrainTally()

    /// A stream into `spool`, emptied first (a pass read again in time order starts over).
    init(spool: PowerLogBatterySpool, maxGap: Double) {
        self.spool = spool
        self.maxGap = maxGap
        spool.removeAll()
    }

    /// Adds a sample (one without a level is left out, as the full read filters it); `screen` are the screen
    /// transitions in time order.
    mutating func add(_ sample: Sample, screen: [ScreenFold.Transition]) {
        guard !outOfOrder, sample.bestLevel != nil else { return }
        if requiresOrder, let previous, sample.at.raw < previous.at.raw {
            outOfOrder = true
            return
        }
        count += 1
        spool.samples.append(sample)
        if let ended = Session.advance(&current, previous: previous, with: sample, maxGap: maxGap) {
            spool.sessions.append(ended)
        }
        if let previous { drain.add(previous, sample, maxGap: maxGap, screen: screen) }
        previous = sample
    }

    /// The battery section without its samples and sessions (they are in the spool); nil without samples.
    mutating func finish(source: String, gauge: (cycleCount: Int64?, design: Int64?, max: Int64?))
        -> PowerLogReport.Battery?
    {
        guard count > 0 else { return nil }
        if let session = current { spool.sessions.append(session) }
        current = nil
        return PowerLogReport.Battery(
            source: source,
            samples: [],
            sessions: [],
            drain: drain.drain,
            cycleCount: gauge.cycleCount,
            designCapacityMAh: gauge.design,
            maxCapacityMAh: gauge.max
        )
    }
}
