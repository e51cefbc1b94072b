import APMInspectCore
import FuzzReplaySupport
import Testing

/// A field from a file put in HTML element content or a quoted attribute opens no element and ends no attribute.
@Suite struct HTMLTextTests {
    @Test func aHostileFieldOpensNoElementAndEndsNoAttribute() {
        let escaped = HTMLText.escaped(MarkupStructure.hostileField)
        for character in ["<", ">", "\"", "'", "\n", "\r"] { #expect(!escaped.contains(character), "\(character)") }
        #expect(!MarkupStructure.hasRawControl(escaped))
        let page = "<td title=\"\(escaped)\" data-x='\(escaped)'>\(escaped)</td>"
        let elements = MarkupStructure.htmlElements(in: page)
        #expect(elements.names == ["td"])
        #expect(elements.comments == 0)
        // Every `&` starts one of the references the escaping writes.
        let references = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
        var rest = Substring(escaped)
        while let ampersand = rest.firstIndex(of: "&") {
            let tail = rest[ampersand...]
            #expect(references.contains { tail.hasPrefix($0) }, "\(tail.prefix(8))")
            rest = tail.dropFirst()
        }
    }

    @Test func controlsAreShownAsEscapes() {
        #expect(HTMLText.escaped("a\nb\u{1B}[31m") == #"a\nb\x1b[31m"#)
        #expect(HTMLText.escaped("</style>") == "&lt;/style&gt;")
    }

    @Test func plainTextIsUnchanged() {
        for text in ["", "iPhone14,2", "München 报告 😀", "0x8badf00d"] { #expect(HTMLText.escaped(text) == text) }
    }
}
