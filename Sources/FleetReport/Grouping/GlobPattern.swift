/// A glob of a grouping rule (`*`, `?`, `[a-z]`, `[!a-z]`, `\` escapes), matched in time proportional to the text's
/// length times the pattern's, whatever the pattern.
///
/// Rules files are hostile input: a backtracking matcher takes exponential time on `*a*a*a*a*a*b` against a long
/// name. This one simulates the pattern's automaton instead, keeping the set of pattern positions reached so far
/// (at most one entry per token) while reading each character of the text once.
package struct GlobPattern: Sendable, Equatable {
    /// How a pattern treats `*` and letter case.
    package enum Mode: Sendable, Equatable {
        /// Case-sensitive; `*` matches any run of characters (function, module, exception type).
        case exact
        /// ASCII letters compared without case; `*` matches any run (exception value, message).
        case ignoringCase
        /// A path, ASCII letters compared without case: `*` stays within one path component, `**` crosses `/`,
        /// and `\` in the text reads as `/` (package, source path).
        case path
    }

    enum Token: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case anyScalar
        /// `[...]`: the ranges (a single character is a range of one), negated by `[!...]` or `[^...]`.
        case set([ClosedRange<UInt32>], negated: Bool)
        /// `*` (crossing `/` unless the mode is ``Mode/path``) or, in path mode, `**` (crossing it).
        case star(crossesSlash: Bool)
    }

    /// Why a pattern could not be compiled, and at which character (0-based, in scalars).
    package struct Problem: Error, Sendable, Equatable {
        package var message: String
        package var offset: Int
    }

    package let source: String
    package let mode: Mode
    let tokens: [Token]

    /// Compiles `source`; a `[` without its `]` is a problem rather than a literal, so a typo is reported.
    package init(_ source: String, mode: Mode) throws(Problem) {
        self.source = source
        self.mode = mode
        let scalars = Array(source.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "*":
                var crosses = mode != .path
                if index + 1 < scalars.count, scalars[index + 1] == "*" {
                    crosses = true
                    index += 1
                }
                // Consecutive stars are one star: the automaton stays as small as the pattern's meaning.
                if case .star(let previous)? = tokens.last {
                    tokens[tokens.count - 1] = .star(crossesSlash: previous || crosses)
                } else {
                    tokens.append(.star(crossesSlash: crosses))
                }
            case "?":
                tokens.append(.anyScalar)
            case "\\":
                guard index + 1 < scalars.count else {
                    throw Problem(message: "the pattern ends with a lone \\", offset: index)
                }
                index += 1
                tokens.append(.scalar(Self.folded(scalars[index], mode: mode)))
            case "[":
                let (token, end) = try Self.set(scalars, from: index, mode: mode)
                tokens.append(token)
                index = end
            default:
                tokens.append(.scalar(Self.folded(scalar, mode: mode)))
            }
            index += 1
        }
        self.tokens = tokens
    }

    /// Parses the set that opens at `start`; returns it and the index of its `]`.
    private static func set(_ scalars: [Unicode.Scalar], from start: Int, mode: Mode) throws(Problem) -> (Token, Int) {
        var index = start + 1
        var negated = false
        if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while index < scalars.count {
            var low = scalars[index]
            // A `]` first in the set is a member, as in shells.
            if low == "]", !first { return (.set(ranges, negated: negated), index) }
            first = false
            if low == "\\", index + 1 < scalars.count {
                index += 1
                low = scalars[index]
            }
            var high = low
            if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
                high = scalars[index + 2]
                index += 2
                guard low.value <= high.value else {
                    throw Problem(message: "the range \(low)-\(high) is backwards", offset: index - 2)
                }
            }
            let range = low.value...high.value
            ranges.append(range)
            if mode != .exact {
                // The other case of the ASCII letters the range holds.
                for letters: ClosedRange<UInt32> in [0x41...0x5A, 0x61...0x7A] where range.overlaps(letters) {
                    let low = max(range.lowerBound, letters.lowerBound) ^ 0x20
                    let high = min(range.upperBound, letters.upperBound) ^ 0x20
                    ranges.append(low...high)
                }
            }
            index += 1
        }
        throw Problem(message: "the [ has no closing ]", offset: start)
    }

    /// The character as compared: ASCII letters in lower case unless the mode is exact, `\` as `/` in a path.
    private static func folded(_ scalar: Unicode.Scalar, mode: Mode) -> Unicode.Scalar {
        switch mode {
        case .exact:
            return scalar
        case .ignoringCase, .path:
            if mode == .path, scalar == "\\" { return "/" }
            guard (0x41...0x5A).contains(scalar.value), let lower = Unicode.Scalar(scalar.value + 32) else {
                return scalar
            }
            return lower
        }
    }

    /// True when the whole of `text` matches the pattern.
    ///
    /// States are the pattern positions reached after the text read so far (position `i`: the first `i` tokens
    /// matched). Each character of the text moves every state once, so the work is at most (text length + 1) ×
    /// (tokens + 1) steps, with no backtracking; it stops early once no state is left.
    package func matches(_ text: String) -> Bool {
        let count = tokens.count
        var current = [Bool](repeating: false, count: count + 1)
        var next = current
        current[0] = true
        closeOverStars(&current)
        for raw in text.unicodeScalars {
            let scalar = Self.folded(raw, mode: mode)
            var any = false
            for position in 0..<count where current[position] {
                switch tokens[position] {
                case .star(let crossesSlash):
                    if crossesSlash || scalar != "/" {
                        next[position] = true
                        any = true
                    }
                case .anyScalar:
                    next[position + 1] = true
                    any = true
                case .scalar(let expected):
                    if expected == scalar {
                        next[position + 1] = true
                        any = true
                    }
                case .set(let ranges, let negated):
                    if ranges.contains(where: { $0.contains(scalar.value) }) != negated {
                        next[position + 1] = true
                        any = true
                    }
                }
            }
            guard any else { return false }
            closeOverStars(&next)
            swap(&current, &next)
            for position in next.indices { next[position] = false }
        }
        return current[count]
    }

    /// A star matches nothing too: a state before a star also stands after it.
    private func closeOverStars(_ states: inout [Bool]) {
        for position in tokens.indices where states[position] {
            if case .star = tokens[position] { states[position + 1] = true }
        }
    }
}
