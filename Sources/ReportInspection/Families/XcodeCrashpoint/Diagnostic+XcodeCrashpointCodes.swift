import APMInspectCore

// The codes of the `.xccrashpoint` bundle metadata files, beside the family that reads them. Each doc comment says
// what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// A metadata file of an `.xccrashpoint` bundle is a binary property list, which this build does not read: the
    /// file is named as bundle metadata, without its facts.
    /// Example: a binary property list: its facts were not read
    package static let crashpointBinaryPlist = Self("xccrashpoint.binary-plist")
    /// A metadata file of an `.xccrashpoint` bundle holds more facts than are kept: the rest were counted.
    /// Example: 12 more facts were left out
    package static let crashpointFactsLeftOut = Self("xccrashpoint.facts-left-out")
}
