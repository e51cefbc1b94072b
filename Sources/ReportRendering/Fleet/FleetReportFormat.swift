/// The views of `report`'s fleet summary (the option parsing is the executable's).
package enum FleetReportFormat: String, CaseIterable, Sendable {
    case text, markdown, json, html
    /// The hangs' main-thread stacks as folded lines (flame-graph input).
    case folded
}
