import APMInspectCore
import FleetReport

/// A fleet group named by a stack: hang groups and resource kills are grouped the same way (by a stack, with the
/// app, its versions, the sources and a few files), so their table rows end alike.
protocol FleetStackGroup {
    var app: String { get }
    var byVersion: FleetSummary.Values { get }
    var sources: [String: Int] { get }
    var frames: [String] { get }
    var files: [String] { get }
    var moreFiles: Int { get }
}

extension FleetSummary.HangGroup: FleetStackGroup {}
extension FleetSummary.ResourceGroup: FleetStackGroup {}

extension FleetReportHTMLRenderer {
    /// The cells a row of stack groups ends with, from the app to the files, and the end of the row.
    static func stackGroupCells(_ group: some FleetStackGroup) -> String {
        var cells = "<td>\(escape(group.app))</td><td>\(escape(FleetReportTextRenderer.values(group.byVersion)))</td>"
        cells += "<td>\(escape(FleetReportTextRenderer.kinds(group.sources)))</td><td><ul>"
        for frame in group.frames { cells += "<li><code>\(escape(frame))</code></li>" }
        cells += "</ul></td><td><ul>"
        for file in group.files { cells += "<li><code>\(escape(file))</code></li>" }
        if group.moreFiles > 0 { cells += "<li class=\"muted\">+\(group.moreFiles) more file(s)</li>" }
        return cells + "</ul></td></tr>\n"
    }
}
