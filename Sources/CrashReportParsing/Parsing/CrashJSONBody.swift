import APMInspectCore
import ByteAccess

/// The JSON body of a bug_type 309 report: one object, or the pieces of one that a stray `}` cut apart.
///
/// Read leniently, `{"a":1,\n},\n"threads":[…]}` is a list of fragments: the object the stray brace closed, then
/// the members after it as an object without braces. Both are the body. Members are looked up in every piece in
/// document order (the first one named wins, as within one object), and the unknown ones of every piece are kept.
/// Each piece read this way, and each object of the list that is not read, gets a diagnostic at its first byte.
struct CrashJSONBody {
    /// The pieces in document order; a whole body is one piece.
    let pieces: [JSONElement]
    /// The piece with crash report keys: where the body's locations point.
    let main: JSONElement

    var document: JSONDocument { main.document }

    init(_ body: JSONElement) {
        pieces = [body]
        main = body
    }

    private init(pieces: [JSONElement], main: JSONElement) {
        self.pieces = pieces
        self.main = main
    }

    /// The value of the first member named `key` in any piece.
    func member(_ key: StaticString) -> JSONElement? {
        for piece in pieces {
            if let value = piece.member(key) { return value }
        }
        return nil
    }

    /// Visits the members of every piece in document order; stops when `body` returns false.
    func forEachMemberRaw(_ body: (BorrowedBytes, JSONElement) -> Bool) {
        var going = true
        for piece in pieces where going {
            piece.forEachMemberRaw { raw, value in
                going = body(raw, value)
                return going
            }
        }
    }

    // MARK: - Locating the body

    /// The body of a document and what was said about the fragments around it; nil when it holds no object.
    ///
    /// A document that is one value is the body. In a list of fragments the body is the first object with crash
    /// report keys (else the first object), joined by every other object but, when the body is a whole report, a
    /// second whole report. An `.ips` header object among them (line 1 too long to be read as a header, see
    /// ``IPSContainer``) is joined too: its members are kept with the body's unknown keys rather than dropped.
    static func locate(in document: JSONDocument) -> (body: CrashJSONBody, diagnostics: [Diagnostic])? {
        guard document.isFragmentList else { return (CrashJSONBody(document.root), []) }
        let items = Array(document.root.elements)
        let objects = items.indices.filter { items[$0].kind == .object }
        guard let mainIndex = objects.first(where: { hasCrashKeys(items[$0]) }) ?? objects.first else { return nil }
        let main = items[mainIndex]
        let mainIsWhole = isCrashShaped(main)
        var pieces: [JSONElement] = []
        var notes = JSONFragmentNotes(document: document)
        var textBefore: JSONElement?
        var textAfter: JSONElement?
        for (k, item) in items.enumerated() {
            if k == mainIndex {
                pieces.append(item)
            } else if item.kind != .object {
                if k < mainIndex {
                    textBefore = textBefore ?? item
                } else {
                    textAfter = textAfter ?? item
                }
            } else if item.count == 0 {
                continue
            } else if mainIsWhole, isCrashShaped(item) {
                notes.add(
                    .warning,
                    .crashSecondBodyIgnored,
                    "a second crash report body was not read: the first is the report",
                    at: item
                )
            } else {
                pieces.append(item)
                notes.add(.warning, JSONFragmentNotes.pieceCode(item), JSONFragmentNotes.readAsPiece(item), at: item)
            }
        }
        if let textBefore {
            notes.add(
                .note,
                .crashTextBesideBody,
                "text before the JSON body was not part of the report",
                at: textBefore
            )
        }
        if let textAfter {
            notes.add(.note, .crashTextBesideBody, "text after the JSON body was not part of the report", at: textAfter)
        }
        return (CrashJSONBody(pieces: pieces, main: main), notes.diagnostics)
    }

    /// True for an object with one of the keys every crash report body has one of.
    static func hasCrashKeys(_ object: JSONElement) -> Bool {
        object.kind == .object
            && (object.member("threads") != nil || object.member("procName") != nil
                || object.member("exception") != nil)
    }

    /// True for a whole report: threads, and an exception, images or a process name.
    var isCrashShaped: Bool {
        guard member("threads") != nil else { return false }
        return member("exception") != nil || member("usedImages") != nil || member("procName") != nil
    }

    private static func isCrashShaped(_ object: JSONElement) -> Bool {
        object.kind == .object && CrashJSONBody(object).isCrashShaped
    }
}
