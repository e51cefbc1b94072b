import APMInspectCore
import ByteAccess

/// A linear pass over XML markup that finds what would make libxml2 slow before libxml2 sees it.
///
/// libxml2 (2.9 on Debian 12) compares each attribute of an element with every earlier one to find duplicates: a
/// start tag with 300,000 attributes took 20–58 s. Charles writes about 30 attributes on its busiest element, so
/// a cap far above that refuses only hostile input. The element count is capped too, so the work and the model
/// built from a session stay bounded whatever the file holds.
struct XMLMarkupLimits: Sendable {
    /// Most attributes one element may carry.
    var maxAttributesPerElement = 1024
    /// Most elements a session may hold (Charles writes about 20 per transaction).
    var maxElements = 20_000_000

    /// What one pass over the markup found.
    struct Findings {
        /// Where the markup first goes past a limit, and which limit.
        var excess: (byteOffset: Int, message: String)?
        /// How many processing instructions without data were blanked, and where the first one was.
        var blankedInstructions = 0
        var firstBlankedInstruction: Int?
    }

    /// Where the markup first goes past a limit, and which limit, nil when it stays within them.
    ///
    /// Comments, CDATA sections, processing instructions and declarations are skipped whole; in a start tag, an
    /// `=` outside quotes is one attribute. Broken markup is left for the parser to report.
    func firstExcess(in bytes: [UInt8]) -> (byteOffset: Int, message: String)? {
        var copy = bytes
        return check(&copy).excess
    }

    /// ``firstExcess(in:)``, and every processing instruction without data (`<?name?>`) replaced by spaces in
    /// `bytes`.
    ///
    /// libxml2 hands such an instruction to its SAX callback with a null data pointer, and FoundationXML's callback
    /// takes the length of that pointer: a 60-byte session crashed the process (SIGSEGV in `strlen`; a
    /// FuzzCharlesXML finding). Every `<?` is looked at, wherever it stands — libxml2 recovering from broken markup
    /// (`<?<?name?>`, a second campaign finding) reads instructions where well-formed XML has none — so the pass
    /// does not follow the document's structure. A Charles session gives processing instructions no meaning, so
    /// blanking them loses nothing the reader keeps (inside a CDATA body the bytes become spaces, the length kept);
    /// lines and columns stay where they were. The caller makes libxml2 read the bytes as UTF-8
    /// (``XMLDeclaration``), so no other encoding turns other bytes into an instruction.
    func check(_ bytes: inout [UInt8]) -> Findings {
        var findings = Findings()
        var at = 0
        while let (open, end) = bytes.withBorrowedBytes({ Self.nextInstructionWithoutData($0, from: at) }) {
            bytes.replaceSubrange(open..<end, with: repeatElement(0x20, count: end - open))
            findings.blankedInstructions += 1
            if findings.firstBlankedInstruction == nil { findings.firstBlankedInstruction = open }
            at = end
        }
        findings.excess = bytes.withBorrowedBytes { excess(in: $0) }
        return findings
    }

    /// The first `<?name?>` at or after `from` (its start and the offset just past it).
    private static func nextInstructionWithoutData(_ buffer: BorrowedBytes, from: Int) -> (Int, Int)? {
        var at = from
        while let open = buffer.firstIndex(of: 0x3C, from: at) {
            at = open + 1
            if let end = endOfInstructionWithoutData(buffer, open) { return (open, end) }
        }
        return nil
    }

    /// Where the markup first passes a limit, and which.
    private func excess(in buffer: BorrowedBytes) -> (byteOffset: Int, message: String)? {
        let n = buffer.count
        var elements = 0
        var i = 0
        while i < n {
            guard let open = buffer.firstIndex(of: 0x3C, from: i) else { return nil }
            var k = open + 1
            guard k < n else { return nil }
            let next = buffer[unchecked: k]
            if next == 0x21 {
                // `<!--…-->`, `<![CDATA[…]]>` or a declaration.
                if Self.matches(buffer, k + 1, "--") {
                    i = Self.end(of: "-->", in: buffer, from: k + 3)
                } else if Self.matches(buffer, k + 1, "[CDATA[") {
                    i = Self.end(of: "]]>", in: buffer, from: k + 8)
                } else {
                    i = Self.endOfDeclaration(buffer, from: k + 1)
                }
                continue
            }
            if next == 0x3F {
                i = Self.end(of: "?>", in: buffer, from: k + 1)
                continue
            }
            if next == 0x2F {
                i = buffer.firstIndex(of: 0x3E, from: k).map { $0 + 1 } ?? n
                continue
            }
            elements += 1
            if elements > maxElements {
                return (open, "the session holds more than \(maxElements) XML elements (the limit)")
            }
            var attributes = 0
            var quote: UInt8 = 0
            while k < n {
                let byte = buffer[unchecked: k]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == 0x22 || byte == 0x27 {
                    quote = byte
                } else if byte == 0x3D {
                    attributes += 1
                    if attributes > maxAttributesPerElement {
                        return (
                            open,
                            "an element has more than \(maxAttributesPerElement) attributes (the limit per element)"
                        )
                    }
                } else if byte == 0x3E {
                    break
                }
                k += 1
            }
            i = k + 1
        }
        return nil
    }

    /// The offset just past `<?name?>` when one starts at `open`, nil otherwise.
    ///
    /// `<?`, a run of bytes that are neither blank nor `?`, `<` or `>` (every byte of an XML name qualifies; a few
    /// that do not are blanked too, harmlessly), then `?>` at once. The run stops at the first byte outside it, so
    /// the pass stays linear.
    private static func endOfInstructionWithoutData(_ buffer: BorrowedBytes, _ open: Int) -> Int? {
        guard buffer[open + 1] == 0x3F else { return nil }
        var k = open + 2
        while k < buffer.count {
            switch buffer[unchecked: k] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x3F, 0x3C, 0x3E: break
            default:
                k += 1
                continue
            }
            break
        }
        guard k > open + 2, buffer[k] == 0x3F, buffer[k + 1] == 0x3E else { return nil }
        return k + 2
    }

    private static func matches(_ buffer: BorrowedBytes, _ at: Int, _ text: StaticString) -> Bool {
        at >= 0 && at <= buffer.count && buffer.slice(from: at).hasPrefix(text)
    }

    /// The offset just past the first `text` at or after `from`, or the end of the buffer.
    private static func end(of text: StaticString, in buffer: BorrowedBytes, from: Int) -> Int {
        buffer.firstIndex(of: text, from: Swift.max(0, from)).map { $0 + text.utf8CodeUnitCount } ?? buffer.count
    }

    /// The offset just past a `<!…>` declaration, whose internal subset (`[…]`) may hold `>`.
    private static func endOfDeclaration(_ buffer: BorrowedBytes, from: Int) -> Int {
        var depth = 0
        var k = Swift.max(0, from)
        while k < buffer.count {
            switch buffer[unchecked: k] {
            case 0x5B: depth += 1
            case 0x5D: depth -= 1
            case 0x3E where depth <= 0: return k + 1
            default: break
            }
            k += 1
        }
        return buffer.count
    }
}
