import APMInspectCore

// The codes of the JetsamEvent reader. Each doc comment says what the code means and ends with an `Example:` line.
extension Diagnostic.Code {
    /// The file has an `.ips` header line and nothing after it: the event holds only what the header says.
    /// Example: the report has a header but no body
    package static let jetsamHeaderWithoutBody = Self("jetsam.header-without-body")
    /// The body is an excerpt (fragments, loose process entries), not a whole report: the event is partial, so
    /// counts and the largest process may be missing.
    /// Example: the body is an excerpt, not a whole report: read 2 loose process entr(ies)
    package static let jetsamExcerpt = Self("jetsam.excerpt")
    /// Nothing of a JetsamEvent could be read from the body: the event holds only what the header says.
    /// Example: no body fields or process entries could be read
    package static let jetsamNoContent = Self("jetsam.no-content")
    /// A string was wrapped over two lines (a mail or a terminal) and the lines were joined to read the body.
    /// Example: a string was wrapped over two lines; joined them
    package static let jetsamWrappedStringJoined = Self("jetsam.wrapped-string-joined")
    /// A value did not have the type its field reads; it is kept verbatim in unknownKeys instead.
    /// Example: expected an integer for 'pid'; kept the value verbatim in unknownKeys
    package static let jetsamMistypedValue = Self("jetsam.mistyped-value")
    /// A string value was cut off with the file; the part that was read is kept.
    /// Example: value was cut off; kept the part that was read
    package static let jetsamCutOffValue = Self("jetsam.cut-off-value")
    /// More unknown or mistyped values than the report's allowance: the later ones are not kept.
    /// Example: 3 unknown or mistyped value(s) (96 bytes) past the allowance kept in unknownKeys were not kept
    package static let jetsamUnknownValuesLimit = Self("jetsam.unknown-values-limit")
    /// Process fields stood at the top level of the body (an excerpt that left out the opening of `processes`);
    /// they were read as a process entry.
    /// Example: process fields at the top level of the body (the excerpt left out the line opening "processes" : [); read them as processes[0]
    package static let jetsamFlattenedProcess = Self("jetsam.flattened-process")
    /// An entry of `processes` is not an object; it was skipped.
    /// Example: a processes entry is not an object; skipped it
    package static let jetsamProcessNotObject = Self("jetsam.process-not-object")
    /// A process entry was cut off with the file: its remaining fields are missing.
    /// Example: this process entry was cut off; its remaining fields are missing
    package static let jetsamCutOffProcess = Self("jetsam.cut-off-process")
    /// More process entries than are read: the rest were skipped, so a killed process may be among them.
    /// Example: read the first 100000 process entries; skipped 12 more
    package static let jetsamProcessListTruncated = Self("jetsam.process-list-truncated")
    /// The report gives a page size of 0, which was ignored: footprints are not computed from it.
    /// Example: pageSize is 0; ignored it
    package static let jetsamZeroPageSize = Self("jetsam.zero-page-size")
    /// The report states no page size: footprints and limits are not computed rather than guessed.
    /// Example: the report states no page size (memoryStatus.pageSize or pageSize); footprints and limits are not computed (A8 devices use 4096-byte pages, so 16384 cannot be assumed)
    package static let jetsamNoPageSize = Self("jetsam.no-page-size")
    /// A process's pages times the page size does not fit 64 bits: its footprint is not computed.
    /// Example: rpages × pageSize overflows 64 bits; footprint not computed
    package static let jetsamFootprintOverflow = Self("jetsam.footprint-overflow")
    /// A kill reason this reader does not know is kept as written, not classified.
    /// Example: unknown kill reason 'gpu-memory' kept as written
    package static let jetsamUnknownKillReason = Self("jetsam.unknown-kill-reason")
    /// An object in a report without a body is neither a body nor a process entry; its members are kept as the
    /// report's unknown keys rather than dropped.
    /// Example: an object that is neither a body nor a process entry; read its 3 member(s) as the report's unknown
    ///   keys
    package static let jetsamLooseObject = Self("jetsam.loose-object")
}
