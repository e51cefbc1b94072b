/// Per-name aggregates with a cap on distinct names: a hostile table can hold millions of distinct names, and
/// one aggregate each would grow with the rows.
///
/// The first `cap` names are tallied exactly; rows of later names are only counted (the caller keeps them in its
/// totals), so a ranking is exact whenever the table has at most `cap` names and says so otherwise.
struct NamedTally<Value> {
    let cap: Int
    private(set) var values: [String: Value] = [:]
    /// Rows whose name came after the cap was reached.
    private(set) var overflowRows = 0

    init(cap: Int) {
        self.cap = max(1, cap)
    }

    /// Applies `body` to the aggregate of `name`, made by `make` on first sight; false (and counted) when the name
    /// is new and the cap is reached.
    @discardableResult
    mutating func update(_ name: String, make: @autoclosure () -> Value, _ body: (inout Value) -> Void) -> Bool {
        if values[name] == nil, values.count >= cap {
            overflowRows += 1
            return false
        }
        body(&values[name, default: make()])
        return true
    }

    /// A warning's text when names were left out, nil otherwise.
    func overflowNote(_ what: String, _ fate: String = "count in the totals only") -> String? {
        guard overflowRows > 0 else { return nil }
        return
            "more than \(cap) distinct \(what): the first \(cap) seen are listed; \(overflowRows) rows of later "
            + "ones \(fate) (a summary's bound; --format json reads every row)"
    }
}
