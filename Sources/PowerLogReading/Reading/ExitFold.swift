/// Process exits for a summary read: all counted (per category), the most recent kept in time order.
///
/// Rows come in any order: the kept ones are trimmed to the latest whenever twice the bound has gathered, with the
/// row's position breaking ties as the full analysis's stable sort does.
struct ExitFold {
    let kept: Int
    private var recent: [(exit: PowerLogReport.ProcessExit, position: Int)] = []
    private(set) var count = 0
    private(set) var categories: [String: Int] = [:]

    init(limits: PowerLogSummaryLimits) {
        kept = max(1, limits.keptRecent)
    }

    mutating func add(_ exit: PowerLogReport.ProcessExit) {
        categories[exit.reason.category.rawValue, default: 0] += 1
        recent.append((exit, count))
        count += 1
        if recent.count >= 2 * kept { trim() }
    }

    private mutating func trim() {
        recent.sort { ($0.exit.at.raw, $0.position) < ($1.exit.at.raw, $1.position) }
        if recent.count > kept { recent.removeFirst(recent.count - kept) }
    }

    /// The most recent exits, oldest first.
    mutating func finish() -> [PowerLogReport.ProcessExit] {
        trim()
        return recent.map(\.exit)
    }
}
