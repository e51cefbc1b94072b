/// The C++ runtime's (GNU's) spelling of a demangled name, respelled as LLVM's demangler prints it.
///
/// Apple's tools (atos, crash reports, llvm-cxxfilt 15 and later) print C++ names with LLVM's Itanium demangler, and
/// the runtime here is GNU's; the two read the same grammar and differ in a few spellings only. Respelling the text
/// keeps GNU's parser, which has read every real name for decades, and its sandbox for names that print without
/// bound; a second Itanium parser would be thousands of lines whose every bound must be proved again. Each rule is a
/// linear pass that never lengthens the text, so the output bound of the runtime's answer still holds.
///
/// The rules, in order:
/// - `> >` closes as `>>`;
/// - `{lambda(int)#1}` is `'lambda'(int)`, `#2` is `'lambda0'`, `#3` `'lambda1'`; `{unnamed type#1}` is `'unnamed'`;
/// - `std::basic_string<char, std::char_traits<char>, std::allocator<char>>` written by the `Ss` abbreviation is
///   `std::string` (likewise `Si`, `So`, `Sd` for the three streams), except as the class of its own constructor or
///   destructor, where LLVM spells it out too;
/// - `operator< <T>` and `operator<< <T>` lose the space before their template arguments;
/// - `decltype(nullptr)` (the mangling `Dn`) is `std::nullptr_t`;
/// - a function's address as a template argument is `&f(int)`, not `&(void f(int))`.
enum CXXLLVMSpelling {
    static func respelled(_ text: String, mangled: [UInt8]) -> String {
        var bytes = Array(text.utf8)
        let found = Marks(bytes)
        guard found.any else { return text }
        if found.closingAngles { bytes = closingAngles(bytes) }
        if found.brace, contains(bytes, "{lambda(") || contains(bytes, "{unnamed type#") { bytes = closureNames(bytes) }
        if found.basicClass {
            for abbreviation in abbreviations where contains(bytes, abbreviation.spelledOut) {
                // The spelled-out form comes from the abbreviation only when the mangling has it and never spells
                // the class's name itself (a template that builds the same class from its parameters prints it in
                // full).
                guard contains(mangled, abbreviation.mangled), !contains(mangled, abbreviation.mangledClassName) else {
                    continue
                }
                bytes = abbreviated(bytes, abbreviation)
            }
        }
        if found.operatorLess {
            bytes = replacing(bytes, "operator< <", with: "operator<<")
            bytes = replacing(bytes, "operator<< <", with: "operator<<<")
        }
        if found.nullptr { bytes = replacing(bytes, "decltype(nullptr)", with: "std::nullptr_t") }
        if found.address { bytes = addressArguments(bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Which rules can apply, from one pass over the text: most names need one or two of them, many none.
    struct Marks {
        var closingAngles = false
        var brace = false
        var basicClass = false
        var operatorLess = false
        var nullptr = false
        var address = false

        var any: Bool { closingAngles || brace || basicClass || operatorLess || nullptr || address }

        init(_ bytes: [UInt8]) {
            let count = bytes.count
            for index in 0..<count {
                switch bytes[index] {
                case UInt8(ascii: ">"):
                    if index + 2 < count, bytes[index + 1] == CXXLLVMSpelling.space,
                        bytes[index + 2] == CXXLLVMSpelling.closeAngle
                    {
                        closingAngles = true
                    }
                case UInt8(ascii: "{"):
                    brace = true
                case UInt8(ascii: "&"):
                    if index + 1 < count, bytes[index + 1] == CXXLLVMSpelling.openParenthesis { address = true }
                case UInt8(ascii: "s"):
                    if !basicClass, CXXLLVMSpelling.starts(bytes, at: index, with: Self.basicPrefix) {
                        basicClass = true
                    }
                case UInt8(ascii: "o"):
                    if !operatorLess, CXXLLVMSpelling.starts(bytes, at: index, with: Self.operatorLessPrefix) {
                        operatorLess = true
                    }
                case UInt8(ascii: "d"):
                    if !nullptr, CXXLLVMSpelling.starts(bytes, at: index, with: Self.nullptrSpelling) { nullptr = true }
                default:
                    break
                }
            }
        }

        private static let basicPrefix = Array("std::basic_".utf8)
        private static let operatorLessPrefix = Array("operator<".utf8)
        private static let nullptrSpelling = Array("decltype(nullptr)".utf8)
    }

    /// One of the Itanium ABI's abbreviations of a standard class.
    struct Abbreviation {
        let mangled: [UInt8]
        /// How the mangling spells the class's own name (seen when a template builds it from its parameters).
        let mangledClassName: [UInt8]
        let short: [UInt8]
        let spelledOut: [UInt8]
        /// The class's name, which after `::` (or `::~`) makes the spelled-out form a constructor's or destructor's.
        let className: [UInt8]
    }

    static let abbreviations: [Abbreviation] = [
        Abbreviation(
            mangled: Array("Ss".utf8),
            mangledClassName: Array("Sb".utf8),
            short: Array("std::string".utf8),
            spelledOut: Array("std::basic_string<char, std::char_traits<char>, std::allocator<char>>".utf8),
            className: Array("basic_string".utf8)
        ),
        Abbreviation(
            mangled: Array("Si".utf8),
            mangledClassName: Array("13basic_istream".utf8),
            short: Array("std::istream".utf8),
            spelledOut: Array("std::basic_istream<char, std::char_traits<char>>".utf8),
            className: Array("basic_istream".utf8)
        ),
        Abbreviation(
            mangled: Array("So".utf8),
            mangledClassName: Array("13basic_ostream".utf8),
            short: Array("std::ostream".utf8),
            spelledOut: Array("std::basic_ostream<char, std::char_traits<char>>".utf8),
            className: Array("basic_ostream".utf8)
        ),
        Abbreviation(
            mangled: Array("Sd".utf8),
            mangledClassName: Array("14basic_iostream".utf8),
            short: Array("std::iostream".utf8),
            spelledOut: Array("std::basic_iostream<char, std::char_traits<char>>".utf8),
            className: Array("basic_iostream".utf8)
        ),
    ]

    /// `> >` as `>>`, for any run of closing brackets.
    static func closingAngles(_ bytes: [UInt8]) -> [UInt8] {
        guard contains(bytes, "> >") else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for index in bytes.indices {
            if bytes[index] == space, output.last == closeAngle, index + 1 < bytes.count, bytes[index + 1] == closeAngle
            {
                continue
            }
            output.append(bytes[index])
        }
        return output
    }

    /// `{lambda(…)#N}` and `{unnamed type#N}` in LLVM's quoted spelling.
    static func closureNames(_ bytes: [UInt8]) -> [UInt8] {
        let closers = matchingParentheses(bytes)
        let lambda = Array("{lambda(".utf8)
        let unnamed = Array("{unnamed type#".utf8)
        // Replacements as (start, end, text), found left to right; they never overlap (a lambda's head and tail
        // are outside whatever its parameter list holds).
        var edits: [(Int, Int, [UInt8])] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == openBrace, starts(bytes, at: index, with: lambda) {
                let open = index + lambda.count - 1
                if let close = closers[open], let (number, end) = ordinal(bytes, at: close + 1) {
                    edits.append((index, open, quoted("lambda", number)))
                    edits.append((close + 1, end, []))
                    index = open
                    continue
                }
            } else if bytes[index] == openBrace, starts(bytes, at: index, with: unnamed),
                let (number, end) = ordinal(bytes, at: index + unnamed.count - 1)
            {
                edits.append((index, end, quoted("unnamed", number)))
                index = end
                continue
            }
            index += 1
        }
        guard !edits.isEmpty else { return bytes }
        edits.sort { $0.0 < $1.0 }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for (start, end, text) in edits where start >= copied {
            output += bytes[copied..<start]
            output += text
            copied = end
        }
        output += bytes[copied...]
        return output
    }

    /// `#N}` at `index`: N (1 or more) and the index past the brace.
    private static func ordinal(_ bytes: [UInt8], at index: Int) -> (Int, Int)? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else { return nil }
        var number = 0
        var end = index + 1
        while end < bytes.count, end - index <= 9, let digit = decimalDigit(bytes[end]) {
            number = number * 10 + digit
            end += 1
        }
        guard end > index + 1, number >= 1, end < bytes.count, bytes[end] == closeBrace else { return nil }
        return (number, end + 1)
    }

    /// `'lambda'` for the first, `'lambda0'` for the second, and so on: LLVM numbers from the mangling's
    /// discriminator, GNU counts from one.
    private static func quoted(_ word: String, _ number: Int) -> [UInt8] {
        Array(("'" + word + (number == 1 ? "" : String(number - 2)) + "'").utf8)
    }

    /// The spelled-out class as its abbreviation, unless it names its own constructor or destructor.
    static func abbreviated(_ bytes: [UInt8], _ abbreviation: Abbreviation) -> [UInt8] {
        let full = abbreviation.spelledOut
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == full[0], starts(bytes, at: index, with: full),
                index == 0 || !(isIdentifierByte(bytes[index - 1]) || bytes[index - 1] == colon)
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let end = index + full.count
            output += isConstructorPrefix(bytes, at: end, className: abbreviation.className) ? full : abbreviation.short
            index = end
        }
        return output
    }

    /// True when `::name` or `::~name` follows at `index`, as a whole identifier.
    private static func isConstructorPrefix(_ bytes: [UInt8], at index: Int, className: [UInt8]) -> Bool {
        var position = index
        guard position + 2 <= bytes.count, bytes[position] == colon, bytes[position + 1] == colon else { return false }
        position += 2
        if position < bytes.count, bytes[position] == UInt8(ascii: "~") { position += 1 }
        guard starts(bytes, at: position, with: className) else { return false }
        let after = position + className.count
        return after == bytes.count || !isIdentifierByte(bytes[after])
    }

    /// `&(…)` as a template argument (after `<` or `, `, before `,` or `>`) without its parentheses.
    static func addressArguments(_ bytes: [UInt8]) -> [UInt8] {
        let closers = matchingParentheses(bytes)
        var dropped = Set<Int>()
        for index in bytes.indices.dropFirst() where bytes[index - 1] == UInt8(ascii: "&") {
            guard bytes[index] == openParenthesis, let close = closers[index], close + 1 < bytes.count,
                bytes[close + 1] == UInt8(ascii: ",") || bytes[close + 1] == closeAngle
            else { continue }
            let before = index - 2
            guard before >= 0,
                bytes[before] == openAngle
                    || (before >= 1 && bytes[before] == space && bytes[before - 1] == UInt8(ascii: ","))
            else { continue }
            dropped.insert(index)
            dropped.insert(close)
        }
        guard !dropped.isEmpty else { return bytes }
        return bytes.indices.filter { !dropped.contains($0) }.map { bytes[$0] }
    }

    /// For each `(`, the index of its `)`: one pass with a stack, so hostile nesting costs linear time.
    private static func matchingParentheses(_ bytes: [UInt8]) -> [Int: Int] {
        var closers: [Int: Int] = [:]
        var open: [Int] = []
        for (index, byte) in bytes.enumerated() {
            if byte == openParenthesis {
                open.append(index)
            } else if byte == closeParenthesis, let start = open.popLast() {
                closers[start] = index
            }
        }
        return closers
    }

    static func replacing(_ bytes: [UInt8], _ target: String, with replacement: String) -> [UInt8] {
        let from = Array(target.utf8)
        guard contains(bytes, from) else { return bytes }
        let to = Array(replacement.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == from[0], starts(bytes, at: index, with: from) {
                output += to
                index += from.count
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        contains(bytes, Array(needle.utf8))
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return needle.isEmpty }
        for index in 0...(haystack.count - needle.count) where haystack[index] == first {
            if starts(haystack, at: index, with: needle) { return true }
        }
        return false
    }

    fileprivate static func starts(_ bytes: [UInt8], at index: Int, with prefix: [UInt8]) -> Bool {
        guard index >= 0, index + prefix.count <= bytes.count else { return false }
        for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    private static func decimalDigit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        decimalDigit(byte) != nil || byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    fileprivate static let space = UInt8(ascii: " ")
    private static let colon = UInt8(ascii: ":")
    private static let openAngle = UInt8(ascii: "<")
    fileprivate static let closeAngle = UInt8(ascii: ">")
    private static let openBrace = UInt8(ascii: "{")
    private static let closeBrace = UInt8(ascii: "}")
    fileprivate static let openParenthesis = UInt8(ascii: "(")
    private static let closeParenthesis = UInt8(ascii: ")")
}
