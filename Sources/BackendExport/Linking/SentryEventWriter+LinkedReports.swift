import APMInspectCore

extension SentryEventWriter {
    /// The tag naming the sources of the reports an event replaces: searchable in Sentry's issue stream.
    package static let linkedSourcesTag = "apm_inspect.linked_sources"
    /// The context listing those reports: shown on the event page as a key/value list.
    package static let linkedReportsContext = "apm_inspect_links"

    /// `event` (as ``event(_:id:)`` made it) with the reports it replaces: the tag ``linkedSourcesTag`` and the
    /// context ``linkedReportsContext`` (`count` of reports of the crash, this one included, and `reports`, each
    /// `{source, file, event_id}`, at most ``LinkedReports/maxReports``).
    package static func event(_ event: JSONValue, linking links: LinkedReports) -> JSONValue {
        guard links.count > 0 else { return event }
        var tags = event["tags"] ?? .object([])
        tags = LinkedReports.setting(linkedSourcesTag, to: .string(String(links.sourcesText.prefix(200))), in: tags)
        let reports = links.reports.map { report -> JSONValue in
            var object = JSONObjectBuilder()
            object.add("source", string: report.source)
            object.add("file", string: report.file)
            object.add("event_id", string: report.eventID?.hex)
            return object.value
        }
        var context = JSONObjectBuilder()
        context.add("count", integer: links.count + 1)
        context.add("reports", .array(reports))
        var contexts = event["contexts"] ?? .object([])
        contexts = LinkedReports.setting(linkedReportsContext, to: context.value, in: contexts)
        var linked = LinkedReports.setting("tags", to: tags, in: event)
        linked = LinkedReports.setting("contexts", to: contexts, in: linked)
        return linked
    }
}
