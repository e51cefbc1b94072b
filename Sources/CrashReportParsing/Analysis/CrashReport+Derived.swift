extension CrashReport {
    /// For readers of other formats (MetricKit) that fill the model themselves: derives what the crash parser
    /// derives for its own reports (OS parts, device name, exception meaning, frame attribution, app images,
    /// signature), so every consumer sees the same fields.
    package mutating func deriveFacts() {
        analyze()
    }

    /// Makes the signature again from the frames' names as they are now (after names were demangled), leaving
    /// every other derived fact as its reader set it.
    package mutating func recomputeSignature() {
        signature = nil
        signatureFrames = nil
        computeSignature()
    }
}

extension CrashReport {
    /// Derives the facts of a report that is a part of `main` (its ``recrashReport``).
    ///
    /// They are derived with `main`'s binary images, process and code type, which the part shares and does not
    /// repeat, so its frames are matched to images and its app frames and signature are those `main`'s would be.
    /// The part keeps none of them.
    package mutating func deriveFacts(asPartOf main: CrashReport) {
        binaryImages = main.binaryImages
        process = main.process
        path = main.path
        codeType = main.codeType
        analyze()
        binaryImages = []
        process = nil
        path = nil
        codeType = nil
    }
}
