/// libxml2's parser error numbers (`xmlParserErrors` in libxml/xmlerror.h, which FoundationXML passes on as
/// `NSError` codes) in words: a bare "error 26" tells a reader of a broken session nothing.
enum XMLErrorWords {
    /// What went wrong, with the number kept for searching libxml2's documentation.
    static func describe(_ code: Int) -> String {
        guard let words = table[code] else { return "XML syntax error (libxml2 code \(code))" }
        return "\(words) (libxml2 code \(code))"
    }

    private static let table: [Int: String] = [
        1: "internal XML parser error",
        2: "the XML parser ran out of memory",
        3: "no XML document start: the file does not begin with markup",
        4: "the XML document is empty",
        5: "text after the end of the XML document",
        6: "a malformed hexadecimal character reference",
        7: "a malformed decimal character reference",
        8: "a character reference to a character XML does not allow",
        9: "a character XML does not allow",
        10: "a character reference cut off by the end of the file",
        14: "an entity reference cut off by the end of the file",
        22: "an entity reference without a name",
        23: "an entity reference without its closing ';'",
        26: "an undeclared entity (entities are not expanded: only the five predefined ones are read)",
        29: "a reference to an external entity (never loaded)",
        31: "an unknown character encoding",
        32: "an unsupported character encoding",
        33: "an attribute value that does not start with a quote",
        34: "an attribute value that is not closed",
        38: "'<' inside an attribute value",
        39: "an attribute value that does not start with a quote",
        40: "an attribute value that is not closed",
        41: "an attribute without a value",
        42: "the same attribute twice on one element",
        45: "a comment that is not closed",
        47: "a processing instruction that is not closed",
        57: "an XML declaration that is not closed",
        61: "a DOCTYPE declaration that is not closed",
        62: "']]>' outside a CDATA section",
        63: "a CDATA section that is not closed",
        65: "a space is missing between attributes",
        68: "a name is missing where markup needs one",
        73: "a tag without its closing '>'",
        74: "an end tag that does not start with '</'",
        75: "an attribute without '='",
        76: "an end tag that does not match the open element",
        77: "the document ends inside an open element",
        81: "bytes that are not in the declared encoding",
        85: "elements that are not properly nested",
        86: "content after the root element",
        89: "an entity that refers to itself",
        110: "a name longer than the parser allows",
        111: "the parse was stopped",
    ]
}
