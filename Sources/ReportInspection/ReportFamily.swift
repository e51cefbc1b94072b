import APMInspectCore

/// One family of reports the inspector can recognise and read.
///
/// The inspector asks its families in order and takes the first answer, so a family that recognises more specific
/// content comes before one that recognises less (a KSCrash report is JSON too). A new family is a new conformance
/// put in the list (``ReportInspector/standardFamilies`` or an embedder's own list), not a new branch in a switch.
public protocol ReportFamily: Sendable {
    /// A short name for the family, used in documentation and errors.
    var name: String { get }

    /// Reads `input` when it belongs to this family; nil hands it on to the next family.
    ///
    /// Once a family answers, the answer stands, a failure included: a report recognised but broken is that
    /// family's failure, not an unknown file.
    func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection?

    /// Reads a regular file without loading its bytes when the family can (a database opened where it lies, which
    /// can be gigabytes); `head` is its first 8 KiB. nil when it is not this family's or needs the bytes.
    func inspectInPlace(path: String, head: [UInt8], with inspector: ReportInspector) -> Inspection?

    /// Whether a file starting with `head` might be read in place, so the inspector stops reading it there and
    /// asks ``inspectInPlace(path:head:with:)``: cheap, from the first bytes alone.
    func mayInspectInPlace(head: [UInt8]) -> Bool
}

extension ReportFamily {
    /// By default a family reads bytes, never a file in place.
    public func mayInspectInPlace(head: [UInt8]) -> Bool {
        false
    }

    /// By default a family reads bytes, never a file in place.
    public func inspectInPlace(path: String, head: [UInt8], with inspector: ReportInspector) -> Inspection? {
        nil
    }
}

extension Inspection {
    /// The envelope of a file that was recognised but could not be read.
    static func failed(
        _ path: String,
        kind: FileKind,
        diagnostics: [Diagnostic] = [],
        _ error: InputError
    ) -> Inspection {
        Inspection(
            file: path,
            kind: kind,
            diagnostics: diagnostics,
            report: nil,
            failure: Failure(code: error.code.rawValue, message: error.message, location: error.location)
        )
    }
}
