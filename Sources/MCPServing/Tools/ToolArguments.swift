import MCP

/// The arguments of a tool call, checked against the tool's schema before anything is read.
///
/// A client is meant to validate against the schema but need not, and a model may send anything: every key is
/// checked here, unknown keys refused (a misspelt option would otherwise be ignored in silence), and the sizes
/// bounded.
package struct ToolArguments: Sendable {
    /// Paths a call may give in all (inputs and dSYMs).
    package static let maxPaths = 4096
    /// Bytes a path or another string may have (PATH_MAX).
    package static let maxStringBytes = 4096

    private let values: [String: Value]

    /// Checks that `values` has only the keys of `tool`, and every key it must have on a server with or without
    /// symbol sources.
    package init(_ values: [String: Value]?, for tool: ToolKind, symbolSources: Bool = false) throws(ToolFailure) {
        let values = values ?? [:]
        let known = Set(tool.options.keys).union(["paths"])
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            let allowed = known.sorted().joined(separator: ", ")
            throw ToolFailure(.mcpInvalidArguments, "\(tool.rawValue) takes no `\(unknown)` (it takes \(allowed))")
        }
        for key in tool.required(symbolSources: symbolSources) where values[key] == nil {
            throw ToolFailure(.mcpInvalidArguments, "\(tool.rawValue) needs `\(key)`")
        }
        self.values = values
    }

    /// The paths of `key`: strings that are not `-` (standard input is the protocol channel), nor empty, nor hold a
    /// NUL byte (the system would read a shorter name than the one checked).
    package func paths(_ key: String, required: Bool) throws(ToolFailure) -> [String] {
        let strings = try strings(key)
        if required && strings.isEmpty {
            throw ToolFailure(.mcpInvalidArguments, "`\(key)` must be a non-empty array of strings")
        }
        guard strings.count <= Self.maxPaths else {
            throw ToolFailure(.mcpInvalidArguments, "`\(key)` holds more than \(Self.maxPaths) paths; give a folder")
        }
        for path in strings {
            if path == "-" {
                throw ToolFailure(
                    .mcpInvalidArguments,
                    "`-` (standard input) cannot be read: it carries the protocol",
                    path: path
                )
            }
            if path.isEmpty || path.utf8.contains(0) {
                throw ToolFailure(.mcpInvalidArguments, "`\(key)` holds an empty path or a NUL byte")
            }
        }
        return strings
    }

    /// The strings of `key`, an array of strings; empty when absent.
    package func strings(_ key: String) throws(ToolFailure) -> [String] {
        guard let value = values[key] else { return [] }
        guard let array = value.arrayValue else {
            throw ToolFailure(.mcpInvalidArguments, "`\(key)` must be an array of strings")
        }
        var strings: [String] = []
        for item in array {
            guard let string = item.stringValue, string.utf8.count <= Self.maxStringBytes else {
                throw ToolFailure(
                    .mcpInvalidArguments,
                    "`\(key)` must be an array of strings of at most \(Self.maxStringBytes) bytes"
                )
            }
            strings.append(string)
        }
        return strings
    }

    /// The string of `key`, or nil when absent.
    package func string(_ key: String) throws(ToolFailure) -> String? {
        guard let value = values[key] else { return nil }
        guard let string = value.stringValue, string.utf8.count <= Self.maxStringBytes else {
            throw ToolFailure(
                .mcpInvalidArguments,
                "`\(key)` must be a string of at most \(Self.maxStringBytes) bytes"
            )
        }
        return string
    }

    /// The flag of `key`, false when absent.
    package func flag(_ key: String) throws(ToolFailure) -> Bool {
        guard let value = values[key] else { return false }
        guard let flag = value.boolValue else { throw ToolFailure(.mcpInvalidArguments, "`\(key)` must be a boolean") }
        return flag
    }

    /// The integer of `key`, one of `allowed`, or `fallback` when absent (a JSON number with no fraction counts).
    package func integer(_ key: String, allowed: ClosedRange<Int>, fallback: Int) throws(ToolFailure) -> Int {
        guard let value = values[key] else { return fallback }
        let number = value.intValue ?? value.doubleValue.flatMap { Int(exactly: $0) }
        guard let number, allowed.contains(number) else {
            throw ToolFailure(
                .mcpInvalidArguments,
                "`\(key)` must be an integer from \(allowed.lowerBound) to \(allowed.upperBound)"
            )
        }
        return number
    }
}
