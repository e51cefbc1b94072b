/// Screen changes folded in time order, for a summary read: on/off time as the full analysis sums it, the
/// transitions drain is billed by, and the first changes for the plot.
struct ScreenFold {
    struct Transition {
        var raw: Double
        var isOn: Bool
    }

    let maxTransitions: Int
    let keptChanges: Int
    /// Changes whose state differs from the one before: the state at any time is the last one at or before it, so
    /// repeats add nothing.
    private(set) var transitions: [Transition] = []
    private(set) var droppedTransitions = 0
    private(set) var changes: [PowerLogReport.Screen.Change] = []
    private(set) var count = 0
    private var previous: PowerLogReport.Screen.Change?
    private var on = 0.0
    private var off = 0.0
    /// A change earlier than the one before: the rows must be read again in time order.
    private(set) var outOfOrder = false
    /// False for rows SQLite sorted: taken in the order given (a value SQLite and Swift read as different numbers
    /// cannot make the sorted pass fail).
    var requiresOrder = true

    init(limits: PowerLogSummaryLimits) {
        maxTransitions = max(1, limits.maxScreenTransitions)
        keptChanges = max(1, limits.keptSamples)
    }

    mutating func add(_ change: PowerLogReport.Screen.Change) {
        guard !outOfOrder else { return }
        if requiresOrder, let previous, change.at.raw < previous.at.raw {
            outOfOrder = true
            return
        }
        count += 1
        if changes.count < keptChanges { changes.append(change) }
        if transitions.last?.isOn != change.isOn {
            if transitions.count < maxTransitions {
                transitions.append(Transition(raw: change.at.raw, isOn: change.isOn))
            } else {
                droppedTransitions += 1
            }
        }
        if let previous { span(previous, to: change.at.utcSeconds) }
        previous = change
    }

    private mutating func span(_ change: PowerLogReport.Screen.Change, to next: Double?) {
        guard let next, next > change.at.utcSeconds else { return }
        if change.isOn { on += next - change.at.utcSeconds } else { off += next - change.at.utcSeconds }
    }

    /// The screen section; nil without changes.
    mutating func finish(end: PowerLogTime?) -> PowerLogReport.Screen? {
        guard let last = previous else { return nil }
        span(last, to: end?.utcSeconds)
        previous = nil
        return .init(source: PowerLogExtractor.displayTable, changes: changes, onSeconds: on, offSeconds: off)
    }

    func notes() -> [String] {
        var out: [String] = []
        if droppedTransitions > 0 {
            out.append(
                "more than \(maxTransitions) screen on/off transitions: drain after the last one kept is billed to "
                    + "that state (a summary's bound; --format json reads every row)"
            )
        }
        return out
    }
}
