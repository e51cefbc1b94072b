/// The column names a `CREATE TABLE` statement declares, read from its text in `sqlite_master.sql`.
///
/// Why: asking SQLite (`pragma_table_info`) prepares one PRAGMA per table, about a fifth of `energy`'s instructions
/// on a real log of some 370 tables, while SQLite has already parsed every one of these statements to open the file
/// (a statement it cannot parse fails the open before this runs). So only text SQLite accepted is read here, and
/// whatever this reader is not sure of gives nil, for the caller to ask SQLite instead: `AS SELECT`, virtual tables,
/// generated columns (which `table_info` leaves out), a column named twice, anything it cannot tokenize.
///
/// Names come out as SQLite stores them: quotes (`"…"`, `'…'`, `` `…` ``, `[…]`) removed and doubled quote
/// characters undone, bare names verbatim.
struct CreateTableColumns {
    /// The columns of `sql` in declaration order, or nil when the text is not a plain `CREATE TABLE … (…)`.
    static func parse(_ sql: String) -> [String]? {
        var bytes = Array(sql.utf8)
        bytes.append(0)
        var lexer = Lexer(bytes: bytes)
        guard lexer.nextIs("CREATE") else { return nil }
        guard let second = lexer.next(), second.kind == .word else { return nil }
        if lexer.matches(second, "TEMP") || lexer.matches(second, "TEMPORARY") {
            guard lexer.nextIs("TABLE") else { return nil }
        } else if !lexer.matches(second, "TABLE") {
            return nil
        }
        // `IF NOT EXISTS`, then the name, maybe `schema.name`: everything up to the opening parenthesis. Anything
        // else there (`AS SELECT`) is not a column list.
        var tokens = 0
        while true {
            guard let token = lexer.next(), tokens < 8 else { return nil }
            tokens += 1
            if token.kind == .open { break }
            if lexer.matches(token, "AS") { return nil }
            guard token.kind == .word || token.kind == .name || token.kind == .dot else { return nil }
        }
        var columns: [String] = []
        var seen = Set<String>()
        // One definition per iteration: its first token is the column's name, or a table constraint's keyword
        // (after which only constraints follow).
        while true {
            guard let first = lexer.next(), first.kind == .word || first.kind == .name else { return nil }
            if first.kind == .word,
                ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"].contains(where: { lexer.matches(first, $0) })
            {
                return lexer.skipToClose() && !columns.isEmpty ? columns : nil
            }
            guard let name = lexer.text(of: first) else { return nil }
            // SQLite compares column names ignoring ASCII case: a duplicate means text this reader misread.
            guard seen.insert(Self.asciiLowercased(name)).inserted else { return nil }
            columns.append(name)
            // The type and constraints, up to the comma or parenthesis that ends the definition.
            var depth = 0
            definition: while true {
                guard let token = lexer.next() else { return nil }
                switch token.kind {
                case .open:
                    depth += 1
                case .close:
                    if depth == 0 { return lexer.atEndOfOptions() ? columns : nil }
                    depth -= 1
                case .comma:
                    if depth == 0 { break definition }
                case .word:
                    // A generated column: `table_info` omits it, so SQLite is asked instead.
                    if depth == 0 && (lexer.matches(token, "AS") || lexer.matches(token, "GENERATED")) { return nil }
                case .name, .dot, .other:
                    break
                }
            }
        }
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// One token of SQL text: its kind and where its bytes are (inside the quotes for a quoted name).
    struct Token {
        enum Kind { case word, name, open, close, comma, dot, other }
        var kind: Kind
        var start: Int
        var end: Int
        /// The quote character doubled inside a quoted name, to be undone; nil for others.
        var quote: UInt8?
    }

    /// A tokenizer over NUL-terminated bytes.
    ///
    /// It skips blanks and both comment forms, reads SQLite's four quoting styles, and treats everything else (numbers, operators, string literals inside `DEFAULT` or `CHECK`) as
    /// tokens whose text does not matter. Tokens are byte ranges: no string is made for a keyword or a type.
    struct Lexer {
        let bytes: [UInt8]
        var index = 0
        /// Set when the text could not be tokenized (an unclosed quote or comment), as opposed to having ended.
        private(set) var failed = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        private func byte(_ at: Int) -> UInt8 { at >= 0 && at < bytes.count ? bytes[at] : 0 }

        /// Whether `token` is the word `keyword` (upper-case ASCII), in any case.
        func matches(_ token: Token, _ keyword: StaticString) -> Bool {
            guard token.kind == .word, token.end - token.start == keyword.utf8CodeUnitCount else { return false }
            return keyword.withUTF8Buffer { key in
                var i = 0
                while i < key.count {
                    var b = byte(token.start + i)
                    if b >= 0x61 && b <= 0x7A { b -= 0x20 }
                    if b != key[i] { return false }
                    i += 1
                }
                return true
            }
        }

        mutating func nextIs(_ keyword: StaticString) -> Bool {
            guard let token = next() else { return false }
            return matches(token, keyword)
        }

        /// The name a word or quoted token stands for; nil when its bytes are not UTF-8 (SQLite is asked then).
        func text(of token: Token) -> String? {
            guard token.start >= 0, token.start <= token.end, token.end <= bytes.count else { return nil }
            let slice = bytes[token.start..<token.end]
            // Most names hold no doubled quote: validated in place, without a copy.
            guard let quote = token.quote, slice.contains(quote) else {
                return String(validating: slice, as: UTF8.self)
            }
            var out: [UInt8] = []
            out.reserveCapacity(slice.count)
            var i = slice.startIndex
            while i < slice.endIndex {
                out.append(slice[i])
                i += slice[i] == quote ? 2 : 1
            }
            return String(validating: out, as: UTF8.self)
        }

        /// The next token, or nil at the end of the text or on text that cannot be tokenized (an unclosed quote
        /// or comment).
        mutating func next() -> Token? {
            guard skipBlanks() else { return nil }
            let start = index
            let b = byte(index)
            let single: Token.Kind?
            switch b {
            case 0: return nil
            case UInt8(ascii: "("): single = .open
            case UInt8(ascii: ")"): single = .close
            case UInt8(ascii: ","): single = .comma
            case UInt8(ascii: "."): single = .dot
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
                return quoted(by: b)
            case UInt8(ascii: "["):
                index += 1
                while byte(index) != UInt8(ascii: "]") {
                    if byte(index) == 0 {
                        failed = true
                        return nil
                    }
                    index += 1
                }
                index += 1
                return Token(kind: .name, start: start + 1, end: index - 1)
            default:
                if Self.isWordByte(b) {
                    while Self.isWordByte(byte(index)) { index += 1 }
                    return Token(kind: .word, start: start, end: index)
                }
                single = .other
            }
            index += 1
            return Token(kind: single ?? .other, start: start, end: index)
        }

        /// A quoted name or string: the quote character doubled inside stands for itself.
        private mutating func quoted(by quote: UInt8) -> Token? {
            index += 1
            let start = index
            while true {
                let b = byte(index)
                if b == 0 {
                    failed = true
                    return nil
                }
                index += 1
                if b == quote {
                    guard byte(index) == quote else { break }
                    index += 1
                }
            }
            return Token(kind: .name, start: start, end: index - 1, quote: quote)
        }

        /// Skips blanks and comments; false on a `/*` comment that is never closed.
        private mutating func skipBlanks() -> Bool {
            while true {
                let b = byte(index)
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C {
                    index += 1
                } else if b == UInt8(ascii: "-") && byte(index + 1) == UInt8(ascii: "-") {
                    while byte(index) != 0 && byte(index) != 0x0A { index += 1 }
                } else if b == UInt8(ascii: "/") && byte(index + 1) == UInt8(ascii: "*") {
                    index += 2
                    while !(byte(index) == UInt8(ascii: "*") && byte(index + 1) == UInt8(ascii: "/")) {
                        if byte(index) == 0 {
                            failed = true
                            return false
                        }
                        index += 1
                    }
                    index += 2
                } else {
                    return true
                }
            }
        }

        /// Letters, digits, `_`, `$` and every non-ASCII byte, as SQLite's tokenizer reads identifiers.
        static func isWordByte(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...0xFF:
                true
            default: false
            }
        }

        /// Skips the rest of a parenthesised list whose opening parenthesis was read: true when it closes and
        /// only table options follow.
        mutating func skipToClose() -> Bool {
            var depth = 0
            while let token = next() {
                switch token.kind {
                case .open: depth += 1
                case .close:
                    if depth == 0 { return atEndOfOptions() }
                    depth -= 1
                default: break
                }
            }
            return false
        }

        /// After the column list: only `WITHOUT ROWID` and `STRICT`, comma-separated, may follow.
        mutating func atEndOfOptions() -> Bool {
            while let token = next() {
                if token.kind == .comma || matches(token, "WITHOUT") || matches(token, "ROWID")
                    || matches(token, "STRICT")
                {
                    continue
                }
                return false
            }
            // The end of the text, not text that failed to tokenize.
            return !failed
        }
    }
}
