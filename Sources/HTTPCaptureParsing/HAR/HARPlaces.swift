import APMInspectCore

/// Where the values of a HAR lie in its file, for the locations of diagnostics.
enum HARPlaces: Sendable {
    /// The whole text is parsed in `document`.
    case document(JSONDocument)
    /// The file is read a window at a time; each entry is a document of its own whose origin is its place in the
    /// file.
    case file(HARFileLines)
    /// Byte offsets only, for a pass whose diagnostics are dropped (``HARReplay``).
    case offsets

    /// The location of `element`, at `keyPath`.
    func location(_ element: JSONElement, _ keyPath: String? = nil) -> SourceLocation {
        switch self {
        case .document(let document):
            return loc(document, element, keyPath)
        case .file(let lines):
            return lines.location(ofByte: element.document.origin.byteOffset + element.byteOffset, keyPath: keyPath)
        case .offsets:
            return SourceLocation(
                byteOffset: element.document.origin.byteOffset + element.byteOffset,
                keyPath: keyPath
            )
        }
    }
}
