import ArgumentParser

/// The formats of the commands that print one envelope per file (`inspect`, `http`, `scan`).
enum EnvelopeFormat: String, OutputFormatChoice {
    case text
    case json
    case ndjson
}
