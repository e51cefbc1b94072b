import APMInspectCore

/// A family of this package: a ``ReportFamily`` that also names the kinds its envelopes carry.
///
/// `FileKind` is open (a family declares its kind in its own folder), so no enum lists the kinds; the registry
/// does, from its families (``ReportInspector/standardKinds``), and the text views take each kind's title from
/// there. A family is thus one line in ``ReportInspector/registeredFamilies``, its kinds and titles beside its code.
package protocol StandardFamily: ReportFamily {
    /// The kinds of this family's envelopes, each with the title its text view and error lines give it ("Crash
    /// report"); a kind two families carry has one title.
    var kinds: KeyValuePairs<FileKind, String> { get }
}
