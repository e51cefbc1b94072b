import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--color auto|always|never`: whether the text view marks the crashed thread and errors in colour.
///
/// `auto` colours only a terminal, and only when `NO_COLOR` is unset or empty (https://no-color.org): a pipe, a
/// file or a CI log gets the same bytes as ever. `always` is for a pager that shows colour (`| less -R`).
enum ColorChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    case auto
    case always
    case never

    /// True when colour is written, for output that is a terminal or not and the value of `NO_COLOR`.
    func isEnabled(outputIsTerminal: Bool, noColor: String?) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: outputIsTerminal && (noColor ?? "").isEmpty
        }
    }

    /// The value of `NO_COLOR` in this process's environment, nil when it is unset.
    static var noColorVariable: String? {
        getenv("NO_COLOR").map { String(cString: $0) }
    }
}
