import APMInspectCore

extension CrashReport {
    /// A sampling profile a crash reporter recorded (KSCrash's `profile` reports).
    ///
    /// A table of frames and samples that point into it. Not a crash.
    public struct Profile: Sendable, Equatable, Codable {
        /// One sample: the stack as indexes into ``frames``, innermost first, as the writer lists them.
        package struct Sample: Sendable, Equatable, Codable {
            package var frames: [Int]
            /// How long the sample took, in seconds, when given.
            package var durationSeconds: Double?

            package init(frames: [Int], durationSeconds: Double? = nil) {
                self.frames = frames
                self.durationSeconds = durationSeconds
            }
        }

        package var name: String?
        /// The profile's identifier, as written.
        public var id: String?
        /// The profile's length in seconds.
        package var durationSeconds: Double?
        /// The interval the sampler aimed at, in seconds.
        package var sampleIntervalSeconds: Double?
        package var frames: [Frame]
        package var samples: [Sample]
        /// Samples past the limit, counted and not kept.
        package var samplesLeftOut: Int

        package init(
            name: String? = nil,
            id: String? = nil,
            durationSeconds: Double? = nil,
            sampleIntervalSeconds: Double? = nil,
            frames: [Frame] = [],
            samples: [Sample] = [],
            samplesLeftOut: Int = 0
        ) {
            self.name = name
            self.id = id
            self.durationSeconds = durationSeconds
            self.sampleIntervalSeconds = sampleIntervalSeconds
            self.frames = frames
            self.samples = samples
            self.samplesLeftOut = samplesLeftOut
        }
    }
}

// Written directly with the report's top level.
extension CrashReport.Profile: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("durationSeconds", durationSeconds)
        object.write("frames", frames)
        object.write("id", id)
        object.write("name", name)
        object.write("sampleIntervalSeconds", sampleIntervalSeconds)
        object.write("samples", samples)
        object.write("samplesLeftOut", samplesLeftOut)
    }
}

extension CrashReport.Profile.Sample: JSONDirectEncodable {
    /// The members `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("durationSeconds", durationSeconds)
        object.write("frames", encoding: frames)
    }
}
