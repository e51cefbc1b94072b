/// Battery level lost off the charger, split by the screen state each interval started in: the one tally the full
/// read and the bounded summary share, so both bill an interval the same way.
struct DrainTally {
    private var on = (seconds: 0.0, percent: 0.0)
    private var off = (seconds: 0.0, percent: 0.0)
    private var unknown = (seconds: 0.0, percent: 0.0)
    /// Where the last interval's screen state was found: intervals come in time order, so the search goes on from
    /// there.
    private var screenIndex = 0

    /// Bills the interval between consecutive samples `a` and `b` when both were off the charger and no gap longer
    /// than `maxGap` lies between them, to the screen state at `a` (`screen` in time order, the same on every call).
    mutating func add(
        _ a: PowerLogReport.Battery.Sample,
        _ b: PowerLogReport.Battery.Sample,
        maxGap: Double,
        screen: [ScreenFold.Transition]
    ) {
        let seconds = b.at.utcSeconds - a.at.utcSeconds
        guard seconds > 0, seconds <= maxGap, Kind(of: a) == .discharging, Kind(of: b) == .discharging,
            let from = a.bestLevel, let to = b.bestLevel
        else { return }
        while screenIndex + 1 < screen.count, screen[screenIndex + 1].raw <= a.at.raw { screenIndex += 1 }
        let state: Bool? =
            screen.indices.contains(screenIndex) && screen[screenIndex].raw <= a.at.raw ? screen[screenIndex].isOn : nil
        add(seconds: seconds, from: from, to: to, screenOn: state)
    }

    private typealias Kind = PowerLogReport.Battery.Session.Kind

    /// Bills `seconds` and the level drop `from - to` to the screen state (`nil` when no transition came before).
    private mutating func add(seconds: Double, from: Double, to: Double, screenOn: Bool?) {
        switch screenOn {
        case true?:
            on.seconds += seconds
            on.percent += from - to
        case false?:
            off.seconds += seconds
            off.percent += from - to
        case nil:
            unknown.seconds += seconds
            unknown.percent += from - to
        }
    }

    /// The rates; a state with no time billed to it has none.
    var drain: PowerLogReport.Battery.Drain {
        func rate(_ value: (seconds: Double, percent: Double)) -> PowerLogReport.Battery.Drain.Rate? {
            value.seconds > 0 ? .init(seconds: value.seconds, percent: value.percent) : nil
        }
        return .init(screenOn: rate(on), screenOff: rate(off), screenUnknown: rate(unknown))
    }
}
