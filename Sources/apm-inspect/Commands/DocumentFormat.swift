import ArgumentParser

/// The formats of a command that prints one document for all its inputs (`energy`).
enum DocumentFormat: String, OutputFormatChoice {
    case text
    case json
}
