/// Diagnostics about the fragments beside a report's body in a lenient list of fragments (``JSONDocument/isFragmentList``),
/// each at its fragment's first byte.
///
/// A reader that joins the pieces of a body cut apart by a stray `}`, or sets an object aside, says so here. Past
/// ``maxListed`` (a hostile list of a million objects) the rest are counted in one diagnostic, at the first of them,
/// so that neither the list nor the cost of locating them grows with the input.
@usableFromInline
package struct JSONFragmentNotes: Sendable {
    @usableFromInline
    package static let maxListed = 20

    private let document: JSONDocument
    private var listed: [Diagnostic] = []
    private var firstUnlisted: Int?
    private var unlisted = 0

    @usableFromInline
    package init(document: JSONDocument) {
        self.document = document
    }

    /// The message for an object read as part of the body: a piece a stray `}` cut off, or an `.ips` header
    /// object among the fragments (line 1 too long to be read as a header, or a second report's header), whose
    /// members are kept with the body's rather than dropped.
    @usableFromInline
    package static func readAsPiece(_ element: JSONElement) -> String {
        if looksLikeIPSHeader(element) {
            return "an .ips header object in the body; read its \(element.count) member(s) as part of the body"
        }
        return "the body is cut into pieces (a stray '}' closed it early); read the \(element.count) member(s) of "
            + "this one as part of it"
    }

    /// The code of ``readAsPiece(_:)``'s finding about `element`.
    @usableFromInline
    package static func pieceCode(_ element: JSONElement) -> Diagnostic.Code {
        looksLikeIPSHeader(element) ? .jsonHeaderObjectInBody : .jsonBodyInPieces
    }

    /// True for an object with a key of an `.ips` header line that a body does not have (`bug_type` is not one:
    /// bodies repeat it).
    @usableFromInline
    package static func looksLikeIPSHeader(_ element: JSONElement) -> Bool {
        element.kind == .object
            && (element.member("timestamp") != nil || element.member("os_version") != nil
                || element.member("incident_id") != nil)
    }

    @usableFromInline
    package var diagnostics: [Diagnostic] {
        guard let firstUnlisted else { return listed }
        return listed + [
            Diagnostic(
                .warning,
                .jsonMoreFragmentsNotListed,
                "\(unlisted) more fragment(s) beside the body (read as part of it or not) are not listed",
                at: document.location(ofByte: firstUnlisted)
            )
        ]
    }

    /// Records a finding about the fragment `element`, located at its first byte.
    @usableFromInline
    package mutating func add(
        _ severity: Diagnostic.Severity,
        _ code: Diagnostic.Code,
        _ message: String,
        at element: JSONElement
    ) {
        if listed.count < Self.maxListed {
            listed.append(Diagnostic(severity, code, message, at: document.location(ofByte: element.byteOffset)))
        } else {
            firstUnlisted = firstUnlisted ?? element.byteOffset
            unlisted += 1
        }
    }
}
