import ArgumentParser

/// How a command prints its result.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case ndjson
    case csv
    case markdown
}
