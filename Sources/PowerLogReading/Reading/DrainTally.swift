/// Battery level lost off the charger, split by the screen state each interval started in: the one tally the full
/// read and the bounded summary share, so both bill an interval the same way.
struct DrainTally {
    private var on = (seconds: 0.0, percent: 0.0)
    private var off = (seconds: 0.0, percent: 0.0)
    private var unknown = (seconds: 0.0, percent: 0.0)

    /// Bills `seconds` and the level drop `from - to` to the screen state (`nil` when no transition came before).
    mutating func add(seconds: Double, from: Double, to: Double, screenOn: Bool?) {
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
