/// Values at the edges parsers get wrong: integer and floating-point limits, empty and control text, nesting.
enum InterestingValues {
    static let jsonNumbers: [String] = [
        "0", "-0", "-1", "1", "255", "256", "65535", "65536", "2147483647", "2147483648", "-2147483649",
        "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "1e309", "-1e309",
        "1.7976931348623157e308", "4.9e-324", "1e-400", "0.1", "-0.0", "123456789012345678901234567890",
        "1E+2", "9007199254740993",
    ]

    static let jsonValues: [String] =
        jsonNumbers + [
            "null", "true", "false", "\"\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\u001b[31mred\"", "[]", "{}", "[null]",
            "{\"\":null}", "\"0x\"", "\"0xffffffffffffffff\"", "\"-1\"", "\"\u{202E}rtl\"", "\"\\\\\"", "NaN",
            "Infinity", "\"1970-01-01 00:00:00.00 +0000\"", "\"9999-99-99\"", "[[]]", "{\"a\":{\"b\":[]}}",
        ]

    static let textValues: [String] = [
        "", "0", "-1", "0x", "0x0", "0xffffffffffffffff", "18446744073709551616", "99999999999999999999999", "NaN",
        "\t", "\u{1B}[2J", "é", "\u{FEFF}", ":", "::", " + ", "(", ")", "[", "]", "<", ">", "0x0 - 0x0", "???",
        "+", "-", "\u{0}", "\r", "(null)", "1.2.3.4.5.6.7.8.9", "arm64e", "<00000000-0000-0000-0000-000000000000>",
    ]

    static let bytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0A, 0x0D, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A]

    static let words: [UInt64] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF,
        0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF,
    ]

    static let octalFields: [String] = [
        "77777777777", "00000000000", "-1", "        ", "8", "0000000000x", "99999999999", "1", "7777777",
    ]

    static let sqlTokens: [String] = ["(", ")", ",", "'", "\"", "INTEGER", "BLOB", "TEXT", "PRIMARY", "--", ";"]
}
