import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Processing instructions without data (`<?name?>`) never reach the XML parser.
///
/// libxml2 reports them with a null data pointer, which FoundationXML dereferences (SIGSEGV). Found by
/// FuzzCharlesXML.
@Suite struct CharlesProcessingInstructionTests {
    private static let session = CharlesStreamingTests.chlsx(count: 3, hosts: 2)

    /// `session` with `insert` placed just after the `<charles-session>` start tag.
    private static func session(inserting insert: String) -> [UInt8] {
        let text = String(decoding: session, as: UTF8.self)
        return Array(text.replacingOccurrences(of: "<charles-session>\n", with: "<charles-session>\n" + insert).utf8)
    }

    @Test(arguments: ["<?x?>", "<?target?>\n<?y?>", "<?xml?>"])
    func anInstructionWithoutDataIsLeftOutAndSaid(insert: String) throws {
        let (capture, diagnostics) = try CharlesXMLReader().read(Self.session(inserting: insert))
        #expect(capture.transactions.count == 3)
        let notes = diagnostics.filter { $0.code == .charlesEmptyProcessingInstruction }
        #expect(notes.count == 1)
        // The note points at the first instruction, on the line after the root's start tag.
        #expect(notes.first?.location?.line == 3)
    }

    @Test func anInstructionWithDataIsLeftAlone() throws {
        let bytes = Self.session(inserting: "<?charles-note kept?>")
        var copy = bytes
        let findings = XMLMarkupLimits().check(&copy)
        #expect(findings.blankedInstructions == 0)
        #expect(copy == bytes)
        let (capture, diagnostics) = try CharlesXMLReader().read(bytes)
        #expect(capture.transactions.count == 3)
        #expect(!diagnostics.contains { $0.code == .charlesEmptyProcessingInstruction })
    }

    @Test func theCrashingFuzzInputIsReadWithoutASignal() {
        let text =
            #"<?xml?>" encoding="UTF-8"?>"# + "\n"
            + #"<!DOCTYPE charles-session roto1/photo.1" prot rropgo"t="443" agts" qualPort="4ue43" "#
        // Broken beyond repair, so an error, but an error and not a crash.
        #expect(throws: HTTPCaptureError.self) { try CharlesXMLReader().read(Array(text.utf8)) }
    }

    @Test func anInstructionInsideADeclarationFarFromTheStartIsBlankedToo() throws {
        // Past the first 4 KiB the DOCTYPE is not blanked whole, so its internal subset reaches libxml2.
        let padding = "<!-- " + String(repeating: "p", count: 5000) + " -->\n"
        let text =
            #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n" + padding
            + "<!DOCTYPE charles-session [<?inside?>]>\n"
            + String(decoding: Self.session, as: UTF8.self).split(separator: "\n", maxSplits: 1)[1]
        var bytes = Array(text.utf8)
        let findings = XMLMarkupLimits().check(&bytes)
        #expect(findings.blankedInstructions == 1)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("<?inside?>"))
        let (capture, _) = try CharlesXMLReader().read(Array(text.utf8))
        #expect(capture.transactions.count == 3)
    }

    /// Every `<?name?>` goes, wherever it stands.
    ///
    /// libxml2 recovering from broken markup reads instructions the document's structure does not have, so the pass
    /// does not trust that structure. Text keeps its length.
    @Test func instructionsAreBlankedInsideCDATAAndCommentsToo() {
        let text = "<a><![CDATA[<?php?>]]><!-- <?x?> --></a>"
        var bytes = Array(text.utf8)
        let findings = XMLMarkupLimits().check(&bytes)
        #expect(findings.blankedInstructions == 2)
        #expect(bytes == Array("<a><![CDATA[       ]]><!--       --></a>".utf8))
    }

    /// The second campaign finding: `<?<?xindexn?>`, a broken instruction, then one without data that libxml2
    /// reads once it has recovered.
    @Test func anInstructionAfterABrokenOneIsBlanked() throws {
        var bytes = Array("<?<?xindexn?>\na".utf8)
        let findings = XMLMarkupLimits().check(&bytes)
        #expect(findings.blankedInstructions == 1)
        #expect(bytes == Array("<?           \na".utf8))
        #expect(throws: HTTPCaptureError.self) { try CharlesXMLReader().read(Array("<?<?xindexn?>\na".utf8)) }
        let (capture, diagnostics) = try CharlesXMLReader().read(Self.session(inserting: "<?<?x?>?>\n"))
        #expect(capture.transactions.count == 3)
        #expect(diagnostics.contains { $0.code == .charlesEmptyProcessingInstruction })
    }

    /// Under `encoding="UTF-7"` libxml2 decoded ASCII `+ADwAPw-abc+AD8APg-` to `<?abc?>` and crashed the process;
    /// the declaration's encoding is blanked, so libxml2 reads the bytes every check saw.
    @Test func anEncodingThatIsNotUTF8IsNotHandedToTheParser() throws {
        let utf7 =
            #"<?xml version="1.0" encoding="UTF-7"?>"# + "\n<charles-session>+ADwAPw-abc+AD8APg-</charles-session>\n"
        let (_, diagnostics) = try CharlesXMLReader().read(Array(utf7.utf8))
        #expect(diagnostics.contains { $0.code == .charlesDeclaredEncoding })
        let session = String(decoding: Self.session, as: UTF8.self)
            .replacingOccurrences(of: #"encoding="UTF-8""#, with: "encoding='ISO-2022-JP'")
        #expect(session.contains("ISO-2022-JP"))
        let (capture, notes) = try CharlesXMLReader().read(Array(session.utf8))
        #expect(capture.transactions.count == 3)
        #expect(notes.contains { $0.code == .charlesDeclaredEncoding })
    }

    @Test(arguments: [
        #"<?xml version="1.0" encoding="UTF-8"?><a/>"#, #"<?xml version='1.0' encoding='utf8'?><a/>"#,
        #"<?xml version="1.0"?><a/>"#, #"<a/><?xml encoding="UTF-7"?>"#, #"<?xml version="1.0" encoding=UTF-7?><a/>"#,
    ])
    func aDeclarationThatNeedsNoChangeIsKept(_ text: String) {
        let (bytes, declared) = XMLDeclaration.forcingUTF8(Array(text.utf8))
        #expect(declared == nil)
        #expect(bytes == Array(text.utf8))
    }

    @Test func theEncodingIsBlankedWithItsLayoutKept() {
        let text = "\u{FEFF}<?xml version=\"1.0\"\n encoding = \"Shift_JIS\" standalone=\"yes\"?>\n<a/>"
        let (bytes, declared) = XMLDeclaration.forcingUTF8(Array(text.utf8))
        #expect(declared == "Shift_JIS")
        #expect(bytes.count == Array(text.utf8).count)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "\u{FEFF}<?xml version=\"1.0\"\n                        standalone=\"yes\"?>\n<a/>"
        )
    }
}
