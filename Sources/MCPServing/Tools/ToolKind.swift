/// The commands offered as tools, named as on the command line.
package enum ToolKind: String, CaseIterable, Sendable {
    case inspect
    case symbolicate
    case memoryLimits = "memory-limits"
    case energy
    case http
    case report

    /// The command line that gives the same JSON, for the description and the size-limit error.
    package var commandLine: String { "apm-inspect \(rawValue) --format json" }

    /// What the model reads to choose the tool: what the files are, and what comes back.
    package var summary: String {
        switch self {
        case .inspect:
            "What each file is and what it says: crash reports (.crash, .ips, KSCrash), watchdog terminations, "
                + "JetsamEvent OOM reports, MetricKit payloads, PowerLog databases, HTTP captures, stackshots and "
                + "panics, recognised by content. Folders are read recursively, tar and tar.gz archives (a "
                + "sysdiagnose) report by report. Returns the envelope {file, kind, diagnostics, report}: one "
                + "object for a single file, an array otherwise (or with array: true)."
        case .symbolicate:
            "Crash reports symbolicated with the dSYMs, Mach-O files, folders or zips in `dsym`. Returns the "
                + "envelopes of inspect, with symbols, files and lines filled in."
        case .memoryLimits:
            "Per-device memory limits (the footprint at which iOS killed foreground apps) from JetsamEvent "
                + "reports in files, folders or archives. Returns the rows (schemaVersion 1) or an object with the "
                + "rows, the summary and the diagnostics (schemaVersion 2)."
        case .energy:
            "Energy and battery history from PowerLog databases (*.PLSQL, *.PLSQL.gz, *.EPSQL, *.BGSQL) given "
                + "or found in folders. Returns the envelope {files, kind, diagnostics, report}."
        case .http:
            "Network timings from HTTP captures (HAR, Charles .chlsj/.chlsx, pcap/pcapng): transactions with "
                + "their phases and a summary per host. Authorization and cookie values are redacted unless "
                + "showSecrets is true."
        case .report:
            "A fleet summary of many reports (files, folders, archives or NDJSON of earlier scans): crash groups, "
                + "watchdog terminations, OOMs, memory limits by device, hangs, app versions and counts per day, "
                + "optionally filtered by date, app and version."
        }
    }
}
