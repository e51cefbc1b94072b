// The codes of the shared readers (diagnostic logs, IPS containers, archives, compression, JSON). Each doc comment
// says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them into
// docs/diagnostics.md.
extension Diagnostic.Code {
    /// More diagnostics of one code were met than a log lists; the message gives how many and which code.
    /// Example: 7 more of the same (har.negative-timing) not listed
    package static let moreNotListed = Self("diagnostic.more-not-listed")
    /// More distinct codes were met than a log keeps; the later ones are only counted.
    /// Example: 12 more diagnostics of other kinds not listed
    package static let moreKindsNotListed = Self("diagnostic.more-kinds-not-listed")
    /// JSON written before diagnostics carried codes, read back: the diagnostic has no code of its own.
    /// Example: (a diagnostic read from an older apm-inspect's JSON output)
    package static let uncoded = Self("diagnostic.uncoded")

    /// The text began with a UTF-8 byte order mark (an editor or a Windows tool saved it), which was skipped.
    /// Example: skipped a UTF-8 byte order mark
    package static let byteOrderMark = Self("text.byte-order-mark")
    /// The first line is too long to be an `.ips` header line; the file is read as all body.
    /// Example: line 1 is 70000 bytes long, more than the 65536 bytes of a header line; the file is read as having no
    ///   header
    package static let ipsHeaderLineTooLong = Self("ips.header-line-too-long")
    /// The header line lost its first bytes (a paste or a cut file) and was read as if it began with `{"`.
    /// Example: the header line was cut at the front; read it as if it began with '{"'
    package static let ipsHeaderCutAtFront = Self("ips.header-cut-at-front")
    /// The header line was wrapped over several lines (an e-mail or a terminal) and was joined.
    /// Example: the header was wrapped over 3 lines; joined them
    package static let ipsHeaderWrapped = Self("ips.header-wrapped")
    /// The header's `bug_type` is not in Apple's table as far as apm-inspect knows it.
    /// Example: bug_type 999 is not in Apple's OSAnalytics log-type table as this build knows it; its number is kept
    ///   and the report is read by its content
    package static let ipsUnknownBugType = Self("ips.unknown-bug-type")

    /// A tar member is larger than the per-member limit; its bytes were skipped and it was not read.
    /// Example: member 'logs/powerlog.PLSQL' is 600000000 bytes, over the 536870912-byte limit; skipped (per-member
    ///   limit)
    package static let archiveMemberTooLarge = Self("archive.member-too-large")
    /// A tar extended (PAX or GNU long-name) header is larger than any real one; it was ignored, so the next
    /// member keeps its short name.
    /// Example: an extended header of 2000000 bytes is over the 1048576-byte limit; ignored
    package static let archiveExtendedHeaderTooLarge = Self("archive.extended-header-too-large")
    /// A member's path is absolute or climbs out of the archive with `..`; it was skipped, never written or read.
    /// Example: skipped member '../../etc/passwd': its path is absolute or climbs out of the archive
    package static let archiveUnsafePath = Self("archive.unsafe-path")
    /// A member is a symbolic or hard link; links are not followed, so what it points to is read only under its
    /// own name.
    /// Example: link 'latest.ips' → 'JetsamEvent-2024-01-01.ips' not followed
    package static let archiveLinkNotFollowed = Self("archive.link-not-followed")
    /// A member is a device node, FIFO or other special file; it holds no data and was ignored.
    /// Example: member 'dev/null' is a character device node; ignored
    package static let archiveSpecialMemberIgnored = Self("archive.special-member-ignored")
    /// The archive ends before its end-of-archive marker or inside a member; the members after that point are
    /// missing.
    /// Example: the archive is truncated: members after byte 1048576 are missing
    package static let archiveTruncated = Self("archive.truncated")
    /// The archive expands past the total-size limit; reading stopped there.
    /// Example: total-size limit reached: the archive expands past 4294967296 bytes; stopped reading
    package static let archiveTotalSizeLimit = Self("archive.total-size-limit")
    /// The archive expands more than the ratio limit allows (a decompression bomb); reading stopped there.
    /// Example: expansion-ratio limit reached: 209715200 bytes from 204800 compressed bytes is more than 100:1;
    ///   stopped reading (a decompression bomb?)
    package static let archiveExpansionRatioLimit = Self("archive.expansion-ratio-limit")
    /// A tar header's checksum does not match; nothing after it can be trusted, so reading stopped there.
    /// Example: a member header is damaged (bad checksum) at byte 10240
    package static let archiveDamagedHeader = Self("archive.damaged-header")
    /// The archive holds more members than the member-count limit; reading stopped there.
    /// Example: member-count limit reached: more than 100000 members; stopped reading
    package static let archiveMemberCountLimit = Self("archive.member-count-limit")
    /// Bytes after the end of the gzip data that are not another gzip member; ignored, as `gzip -d` ignores them.
    /// Example: bytes from offset 4096 after the compressed data are not another gzip member; ignored (gzip -d
    ///   ignores them too)
    package static let gzipTrailingBytes = Self("gzip.trailing-bytes")

    /// A byte the lenient JSON reader could not place in any value; skipped.
    /// Example: skipped a byte the parser could not place
    package static let jsonUnplaceableByte = Self("json.unplaceable-byte")
    /// A key was not followed by `:`; one was assumed.
    /// Example: expected ':' after the key; assumed one
    package static let jsonMissingColon = Self("json.missing-colon")
    /// A `}` or `]` closed nothing; the text before it is read as a fragment of its own.
    /// Example: skipped an unmatched '}': the text before it is a fragment
    package static let jsonUnmatchedClose = Self("json.unmatched-close")
    /// `key: value` members appeared outside any object (the braces were lost); read as one object.
    /// Example: members without an enclosing object; read them as one
    package static let jsonMembersWithoutObject = Self("json.members-without-object")
    /// A key had no value before the object closed; the key was dropped.
    /// Example: key without a value before '}'; dropped the key
    package static let jsonKeyWithoutValue = Self("json.key-without-value")
    /// A comma before a closing `}` or `]`; ignored.
    /// Example: trailing comma
    package static let jsonTrailingComma = Self("json.trailing-comma")
    /// Two commas in a row; the extra one was ignored.
    /// Example: extra ','
    package static let jsonExtraComma = Self("json.extra-comma")
    /// Text that is neither a value nor a key (a log line, a prompt, a paste's heading) was skipped.
    /// Example: skipped text that is not a JSON value
    package static let jsonSkippedText = Self("json.skipped-text")
    /// Two values followed each other without a comma; one was assumed.
    /// Example: missing ','; assumed one
    package static let jsonMissingComma = Self("json.missing-comma")
    /// A string ran to the end of its line without a closing quote; it was ended there (a cut or wrapped line).
    /// Example: unterminated string; ended it at the end of the line
    package static let jsonUnterminatedString = Self("json.unterminated-string")
    /// A string holds a raw control character that JSON requires escaped; kept as read.
    /// Example: raw control character 0x09 inside a string (JSON escapes them); kept as read, as are any
    ///   others
    package static let jsonRawControlCharacter = Self("json.raw-control-character")
    /// A number that is not valid JSON (`1.2.3`, `0x1F`); kept as text so nothing is lost.
    /// Example: malformed number kept as text
    package static let jsonMalformedNumber = Self("json.malformed-number")
    /// A `}` closed an array or a `]` an object; the open container was closed.
    /// Example: mismatched ']'; closed the open container
    package static let jsonMismatchedClose = Self("json.mismatched-close")
    /// The text ends inside open objects or arrays (a truncated file); they were closed so what came before is
    /// read.
    /// Example: input ends inside 3 open container(s): truncated; closed them
    package static let jsonTruncated = Self("json.truncated")
    /// A `//`, `/* */` or `#` comment, which JSON does not allow; skipped.
    /// Example: skipped a // comment
    package static let jsonComment = Self("json.comment")
    /// An elision (`...`) a person or a tool left where values were cut out; skipped.
    /// Example: skipped an elision ('...')
    package static let jsonElision = Self("json.elision")
    /// More JSON repairs were made than are listed one by one: how many, and the bytes they lie in (the location's
    /// `byteOffset` to `lastByteOffset`).
    /// Example: 57 further repair(s) not listed, at bytes 165–402
    package static let jsonMoreRepairsNotListed = Self("json.more-repairs-not-listed")
    /// A value nested deeper than the depth limit was skipped without reading it (the rest of the document is
    /// read).
    /// Example: a value nested deeper than 512 levels was skipped: what it holds was not read
    package static let jsonTooDeepSkipped = Self("json.too-deep-skipped")
    /// A stray `}` closed a report's body early; the piece after it was read as part of the body, so its members
    /// are kept rather than dropped.
    /// Example: the body is cut into pieces (a stray '}' closed it early); read the 4 member(s) of this one as part
    ///   of it
    package static let jsonBodyInPieces = Self("json.body-in-pieces")
    /// An `.ips` header object sits among the body's fragments (line 1 too long to be read as the header, or a
    /// second report's header); its members were read as part of the body rather than dropped.
    /// Example: an .ips header object in the body; read its 5 member(s) as part of the body
    package static let jsonHeaderObjectInBody = Self("json.header-object-in-body")
    /// More fragments beside a report's body than are listed; counted in one diagnostic at the first of them.
    /// Example: 5 more fragment(s) beside the body (read as part of it or not) are not listed
    package static let jsonMoreFragmentsNotListed = Self("json.more-fragments-not-listed")

    /// A path named on the command line or met in a folder could not be opened; what it holds was not read.
    /// Example: cannot open: Permission denied
    package static let walkCannotOpen = Self("walk.cannot-open")
    /// A symbolic link points to nothing; skipped.
    /// Example: a symbolic link to nothing; skipped
    package static let walkDanglingLink = Self("walk.dangling-link")
    /// A folder could not be listed; the files in it were not read.
    /// Example: cannot list the folder: Permission denied
    package static let walkCannotList = Self("walk.cannot-list")
    /// A folder was reached a second time (a link loop, a second link, a bind mount); it is walked once.
    /// Example: a folder already walked (a bind mount?); skipped
    package static let walkAlreadyWalked = Self("walk.already-walked")
    /// A folder appeared while the walk was under way; it was not planned and is not read.
    /// Example: a folder that appeared while the walk was under way; not read
    package static let walkAppearedDuringWalk = Self("walk.appeared-during-walk")
    /// An entry vanished between listing its folder and reading it.
    /// Example: vanished while the folder was walked
    package static let walkVanished = Self("walk.vanished")
    /// An entry is a FIFO, socket or device, not a file; skipped (reading a FIFO could block for ever).
    /// Example: a FIFO (named pipe), not a regular file; skipped
    package static let walkNotARegularFile = Self("walk.not-a-regular-file")
}
