import APMInspectCore

// The codes of the HTTP capture readers (HAR, Charles, pcap and pcapng, and the summary built from them). Each doc
// comment says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them
// into docs/diagnostics.md.
extension Diagnostic.Code {
    // MARK: - Any capture

    /// The compressed capture ends before its stream does: the transactions in what arrived are read, later ones
    /// are missing from every figure.
    /// Example: the gzip stream is cut off; read what it holds
    package static let httpCompressedStreamCutOff = Self("http.compressed-stream-cut-off")
    /// A start time could not be read as an ISO 8601 time: the transaction has no place on the timeline.
    /// Example: startedDateTime "yesterday" is not an ISO 8601 time
    package static let httpBadDate = Self("http.bad-date")
    /// A number the capture gives (a size, a status, a duration) does not fit its field: it counts as unknown, and
    /// its JSON is kept in the transaction's extensions so nothing is lost.
    /// Example: response.bodySize = 1e300 is not a byte count; kept in extensions
    package static let httpUnfitValue = Self("http.unfit-value")
    /// The capture names more hosts than the summary keeps rows for: the later hosts' requests are counted together,
    /// so per-host figures for them are not given.
    /// Example: more than 50 distinct hosts: 2 requests to hosts seen after them are counted together as (other hosts)
    package static let httpHostsFolded = Self("http.hosts-folded")
    /// The capture holds more timings than are kept exactly: percentiles are estimates within a stated error, so a
    /// difference smaller than that between two captures means nothing.
    /// Example: more than 1000 timing values: percentiles come from log-bucketed histograms, within 0.8 % of the exact value (n and max are exact)
    package static let httpPercentilesApproximate = Self("http.percentiles-approximate")

    // MARK: - HAR

    /// The HAR has no `log.version`: it is read as HAR 1.2, which a tool writing an older layout may not be.
    /// Example: log.version is missing
    package static let harMissingVersion = Self("har.missing-version")
    /// The HAR has no `log.creator`: the writer's timing conventions (mitmproxy's, a browser's) cannot be told from
    /// its name.
    /// Example: log.creator is missing
    package static let harMissingCreator = Self("har.missing-creator")
    /// The HAR has no `log.entries`: there are no requests to report on.
    /// Example: log.entries is missing: no requests
    package static let harMissingEntries = Self("har.missing-entries")
    /// An entry could not be parsed as JSON even on its own: it is skipped, so its request is missing from the
    /// figures.
    /// Example: entry 12 is not readable JSON; skipped
    package static let harEntryUnreadable = Self("har.entry-unreadable")
    /// An entry is not a JSON object: it is skipped.
    /// Example: entry 3 is not an object; skipped
    package static let harEntryNotObject = Self("har.entry-not-object")
    /// An entry has neither a request nor a response (often the last one of a cut file): it is skipped.
    /// Example: entry 41 is cut off by the end of the file; skipped
    package static let harEntryEmpty = Self("har.entry-empty")
    /// `startedDateTime` has no time zone: it is read as UTC, so it may be off by the writer's offset.
    /// Example: startedDateTime has no time zone; read as UTC
    package static let harDateWithoutZone = Self("har.date-without-zone")
    /// An entry has no `startedDateTime`: the request is counted but not placed on the timeline.
    /// Example: startedDateTime is missing or empty
    package static let harMissingDate = Self("har.missing-date")
    /// An entry has no request: its method and URL are unknown.
    /// Example: entry has no request
    package static let harMissingRequest = Self("har.missing-request")
    /// An entry has no response: it is counted as a network error, as a browser records a request that failed.
    /// Example: entry has no response (counted as a network error)
    package static let harMissingResponse = Self("har.missing-response")
    /// A phase in `timings` is not a duration: that phase is unknown rather than a wrong number in the percentiles.
    /// Example: timings.wait = "fast" is not a duration; treated as unknown
    package static let harBadTiming = Self("har.bad-timing")
    /// An entry's `timings` is empty: its phases are unknown and only its total time is used.
    /// Example: timings are empty: phases unknown
    package static let harEmptyTimings = Self("har.empty-timings")

    // MARK: - Charles

    /// A transaction of a Charles JSON session could not be parsed even on its own: it is skipped.
    /// Example: transaction 7 is not readable JSON; skipped
    package static let charlesItemUnreadable = Self("charles.item-unreadable")
    /// A transaction of a Charles JSON session is not a JSON object: it is skipped.
    /// Example: transaction 2 is not an object; skipped
    package static let charlesItemNotObject = Self("charles.item-not-object")
    /// The Charles XML session has a byte that is not UTF-8: the transactions before it are read, the rest are not.
    /// Example: byte 81920 is not UTF-8; the session was read up to it
    package static let charlesNotUTF8 = Self("charles.not-utf8")
    /// The XML declaration names another encoding: the session is read as UTF-8 (what Charles writes), so text in
    /// another encoding may read wrong.
    /// Example: the XML declaration names the encoding "ISO-8859-1"; the session is read as UTF-8
    package static let charlesDeclaredEncoding = Self("charles.declared-encoding")
    /// Processing instructions without data were left out, because the XML parser cannot read them; they carry no
    /// transaction data.
    /// Example: a processing instruction without data was left out (the XML parser cannot read one)
    package static let charlesEmptyProcessingInstruction = Self("charles.empty-processing-instruction")
    /// The XML session goes past a markup limit the parser would be slow on: the transactions before the offending
    /// element are read, the rest are not.
    /// Example: the session holds more than 10 XML elements (the limit); read the transactions before that element
    package static let charlesMarkupLimit = Self("charles.markup-limit")
    /// The XML session ends early or is broken: the transactions before the break are read, the rest are not.
    /// Example: XML ends early or is broken (XML syntax error (libxml2 code 9)); read the transactions before it
    package static let charlesBrokenXML = Self("charles.broken-xml")

    // MARK: - Packet captures

    /// The capture holds TLS decryption secrets, which apm-inspect does not use: encrypted traffic stays opaque.
    /// Example: the capture holds 1 decryption secrets block(s); TLS decryption is not done
    package static let pcapDecryptionSecrets = Self("pcap.decryption-secrets")
    /// IP fragments were not reassembled: what they carried is missing from the connections.
    /// Example: 14 IP fragment(s) were not reassembled
    package static let pcapIPFragments = Self("pcap.ip-fragments")
    /// The capture holds no packets: there is nothing to report on.
    /// Example: the capture holds no packets
    package static let pcapNoPackets = Self("pcap.no-packets")
    /// A connection carries more than the per-connection limit: the rest of it is not parsed, so later requests on
    /// it are missing.
    /// Example: connection 1.2.3.4:5021 → 1.2.3.5:80 holds more than 67108864 bytes; the rest is not parsed
    package static let pcapStreamLimit = Self("pcap.stream-limit")
    /// After a capture hole, bytes were skipped to the next line that starts a request or response: a message cut
    /// by the hole is lost.
    /// Example: connection 1.2.3.4:5021 → 1.2.3.5:80: 1380 bytes after a capture hole skipped to the next response line
    package static let pcapCaptureHoleSkip = Self("pcap.capture-hole-skip")
    /// A connection has bytes the capture did not record (a dropped packet, a snap length): parsing resumed after
    /// each hole, and messages in a hole are missing or cut.
    /// Example: connection 1.2.3.4:5021 → 1.2.3.5:80: 2760 bytes were not captured; parsing resumed after each hole
    package static let pcapCaptureHole = Self("pcap.capture-hole")
    /// Responses were captured without their requests (the capture began mid-connection): they are not paired, so
    /// they have no timing.
    /// Example: responses without their requests in the capture (request side missing)
    package static let pcapResponseOnly = Self("pcap.response-only")
    /// A response is cut by a capture hole or by the end of the capture: its size and end time are not known.
    /// Example: response to GET http://example.com/ is cut off in the capture
    package static let pcapIncompleteResponse = Self("pcap.incomplete-response")
    /// A request has no response in the capture: its outcome is unknown rather than an error.
    /// Example: no response captured for GET http://example.com/a (the connection has capture holes)
    package static let pcapNoResponse = Self("pcap.no-response")
    /// A request line has a method and a target but no HTTP version (`GET /path`): it is read as an HTTP/0.9
    /// request, the line alone with no headers, and its response, unless a status line starts it, as the bytes up to
    /// the connection's close, with no status.
    /// Example: request line "GET /index.html" has no HTTP version; read as HTTP/0.9 (no headers; the response runs to the connection's close unless a status line starts it)
    package static let pcapVersionlessRequest = Self("pcap.versionless-request")
    /// A request line has a method and a version but no target (`GET HTTP/1.1`): the request is read, its URL is
    /// the origin alone.
    /// Example: request line "GET HTTP/1.1" has no target; its URL is the origin alone
    package static let pcapRequestWithoutTarget = Self("pcap.request-without-target")
    /// A pcap record is cut short by the end of the file: what is there was read.
    /// Example: record 1201 claims 1514 bytes but the file ends first; read what is there
    package static let pcapTruncatedRecord = Self("pcap.truncated-record")
    /// A pcap record's length cannot be right: the file is damaged there and reading stopped.
    /// Example: record length 4294967295 is absurd; stopped
    package static let pcapBadRecord = Self("pcap.bad-record")
    /// The capture holds more packets than the reader's limit: later packets are not read.
    /// Example: stopped after 10000000 packets (the limit)
    package static let pcapPacketLimit = Self("pcap.packet-limit")
    /// A pcapng block or section header is cut short by the end of the file: what came before was read.
    /// Example: the last block is cut short
    package static let pcapTruncatedBlock = Self("pcap.truncated-block")
    /// A pcapng section has an unknown byte-order magic: the file is damaged there and reading stopped.
    /// Example: section with an unknown byte-order magic; stopped
    package static let pcapBadSection = Self("pcap.bad-section")
    /// A pcapng block's length is invalid: the file is damaged there and reading stopped.
    /// Example: block length 7 is invalid; stopped
    package static let pcapBadBlock = Self("pcap.bad-block")
    /// A packet names an interface the capture did not define: its link type and time resolution are unknown, so
    /// it is not read.
    /// Example: packet refers to interface 3, which is not defined
    package static let pcapUnknownInterface = Self("pcap.unknown-interface")
    /// A packet claims more captured bytes than its block holds: the bytes the block holds are read.
    /// Example: packet claims 1514 captured bytes but its block holds 60; those are read
    package static let pcapPacketLength = Self("pcap.packet-length")
    /// The capture has Simple Packet Blocks, which carry no time stamps: their packets are read but not timed.
    /// Example: Simple Packet Blocks carry no time stamps: their packets are not timed
    package static let pcapUntimedPackets = Self("pcap.untimed-packets")
}
