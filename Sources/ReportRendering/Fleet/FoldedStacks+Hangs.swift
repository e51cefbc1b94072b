import FleetReport

extension FoldedStacks {
    /// `report --format folded`: the main-thread stacks of every hang in the report, for flame-graph tools.
    ///
    /// Root first, one line per distinct stack with the number of hangs that had it (`frame;frame;frame 3`).
    /// Hangs past the stack limit are in no line (`hangs.stacksUngrouped` in the JSON counts them).
    package init(hangs: FleetSummary.Hangs) {
        self.init()
        append(lines: hangs.stacks.map { $0.frames.joined(separator: ";") + " " + String($0.count) })
    }
}
