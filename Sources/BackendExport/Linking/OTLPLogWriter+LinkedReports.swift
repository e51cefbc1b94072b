import APMInspectCore

extension OTLPLogWriter {
    /// The attribute naming the sources of the reports a record replaces (comma-separated, as the Sentry tag).
    package static let linkedSourcesAttribute = "apm_inspect.linked_sources"
    /// The attribute listing their event ids (dashed, comma-separated): the `app.crash.id` each has on its own.
    package static let linkedEventIDsAttribute = "apm_inspect.linked_event_ids"
    /// The attribute counting the reports of the crash, the record's own included.
    package static let linkedCountAttribute = "apm_inspect.linked_reports"

    /// `document` (one ``document(_:metricPayloads:)`` of a single incident) with the reports its record replaces
    /// as attributes of that record; a document of another shape is returned as it is.
    package static func document(_ document: JSONValue, linking links: LinkedReports) -> JSONValue {
        guard links.count > 0,
            case .array(var resourceLogs)? = document["resourceLogs"], let resource = resourceLogs.first,
            case .array(var scopeLogs)? = resource["scopeLogs"], let scope = scopeLogs.first,
            case .array(var records)? = scope["logRecords"], records.count == 1,
            case .array(var attributes)? = records[0]["attributes"]
        else { return document }
        attributes.append(attribute(linkedSourcesAttribute, .string(links.sourcesText)))
        let ids = links.reports.compactMap { $0.eventID?.dashed }
        if !ids.isEmpty { attributes.append(attribute(linkedEventIDsAttribute, .string(ids.joined(separator: ",")))) }
        attributes.append(attribute(linkedCountAttribute, .int(Int64(clamping: links.count + 1))))
        records[0] = LinkedReports.setting("attributes", to: .array(attributes), in: records[0])
        scopeLogs[0] = LinkedReports.setting("logRecords", to: .array(records), in: scope)
        resourceLogs[0] = LinkedReports.setting("scopeLogs", to: .array(scopeLogs), in: resource)
        return LinkedReports.setting("resourceLogs", to: .array(resourceLogs), in: document)
    }
}
