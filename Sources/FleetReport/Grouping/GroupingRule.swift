/// One line of a rules file: matchers that must all hold, and the fingerprint (and title) of the crashes they hold
/// for.
package struct GroupingRule: Sendable, Equatable {
    /// What a matcher tests: Sentry's matcher names, read on an Apple crash report.
    package enum Field: String, Sendable, Equatable, CaseIterable {
        /// A frame's symbol (`stack.function`).
        case function
        /// A frame's image name, `libswiftCore.dylib` (`stack.module`).
        case module
        /// A frame's image path, else its image name (`stack.package`), compared as a path.
        case package
        /// A frame's source file, when symbolication gave one (`stack.abs_path`), compared as a path.
        case path
        /// Whether a frame is in one of the app's own images (`app:yes`, `app:no`).
        case app
        /// The exception: its Mach type or its signal (`error.type`).
        case type
        /// The exception's message and reason lines (`error.value`).
        case value
        /// As ``value`` (Sentry's `message` tests the exception value too).
        case message

        /// True for the fields of one frame: a rule's frame matchers must all hold on the same frame.
        var isFrameField: Bool {
            switch self {
            case .function, .module, .package, .path, .app: true
            case .type, .value, .message: false
            }
        }

        /// The names a rules file may use for each field: Sentry's long and short forms.
        static let names: [(String, Field)] = [
            ("stack.function", .function), ("function", .function),
            ("stack.module", .module), ("module", .module),
            ("stack.package", .package), ("package", .package),
            ("stack.abs_path", .path), ("path", .path),
            ("app", .app),
            ("error.type", .type), ("type", .type),
            ("error.value", .value), ("value", .value),
            ("message", .message),
        ]
    }

    /// One `key:value` test, `!` negating it.
    package struct Matcher: Sendable, Equatable {
        package var field: Field
        package var negated: Bool
        /// The glob, for every field but ``Field/app``.
        var pattern: GlobPattern?
        /// `app:yes` or `app:no`.
        var appValue: Bool?
    }

    /// A variable a fingerprint or title may name (`{{ function }}`).
    package enum Variable: String, Sendable, Equatable, CaseIterable {
        /// The default grouping: the crash's signature.
        case `default`
        /// The crashing frame's function (the top app frame, else the top frame).
        case function
        /// The crashing frame's image name.
        case module
        /// The last component of the crashing frame's image path.
        case package
        /// The exception's type (the Mach exception, else the signal).
        case type
        /// The exception's first message or reason line.
        case value
        /// As ``value``.
        case message

        /// Sentry's long forms name the same variables.
        static func named(_ name: String) -> Variable? {
            switch name {
            case "stack.function": .function
            case "stack.module": .module
            case "stack.package": .package
            case "error.type": .type
            case "error.value": .value
            default: Variable(rawValue: name)
            }
        }
    }

    /// A piece of a fingerprint value or a title: text as written, or a variable filled per crash.
    package enum Part: Sendable, Equatable {
        case text(String)
        case variable(Variable)
    }

    /// The line in the rules file (1-based).
    package var line: Int
    /// The rule as written, without the spaces around it.
    package var text: String
    package var matchers: [Matcher]
    /// The fingerprint's values, each one text or one variable.
    package var fingerprint: [Part]
    /// `title="…"`: text and variables.
    package var title: [Part]?
}
