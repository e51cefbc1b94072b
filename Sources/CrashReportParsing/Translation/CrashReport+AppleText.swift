import APMInspectCore

extension CrashReport {
    /// The report as Apple's text translation writes it, in the layout of its platform.
    ///
    /// Uses only the model; `CrashTextTranslator().translate(bytes)` also reads the JSON details the
    /// model drops (frame image indexes, instruction stream, blank lines of the VM summary).
    package func appleText(layout: AppleTextLayout? = nil) -> String {
        CrashTextTranslator(layout: layout).translate(self)
    }
}
