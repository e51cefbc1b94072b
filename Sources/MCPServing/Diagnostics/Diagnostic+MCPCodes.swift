import APMInspectCore

// The codes `apm-inspect mcp` puts in a tool error (`isError: true`): why a call was refused or its result left out.
// Each doc comment says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py
// turns them into docs/diagnostics.md.
extension Diagnostic.Code {
    /// A path of a tool call (an input, a dSYM, or a file a folder leads to through a link) resolves outside the
    /// folders the server was started with, or does not exist and the nearest folder above it that does is outside
    /// them (so a client cannot probe which files exist elsewhere): nothing was read.
    /// Example: /etc/passwd is outside the allowed folders (/home/me/reports)
    package static let mcpPathOutsideRoots = Self("mcp.path-outside-roots")

    /// A path of a tool call inside the allowed folders does not resolve to anything (missing, a dangling link, a
    /// name too long): nothing was read.
    /// Example: cannot resolve reports/missing.ips: No such file or directory
    package static let mcpPathUnresolvable = Self("mcp.path-unresolvable")

    /// A path of a tool call names neither a regular file nor a folder (a FIFO, a socket, a device): reading it could
    /// block the server, whose calls run one at a time.
    /// Example: reports/pipe.ips is neither a file nor a folder (a FIFO, a socket or a device would hold the server)
    package static let mcpPathNotAFile = Self("mcp.path-not-a-file")

    /// A tool call's arguments do not fit the tool's input schema: a missing or mistyped key, an unknown key, a
    /// value out of range, or `-` (standard input is the protocol channel).
    /// Example: `paths` must be a non-empty array of strings
    package static let mcpInvalidArguments = Self("mcp.invalid-arguments")

    /// A tool's result passed the size a tool result may have: the command in a shell gives it whole.
    /// Example: the result passed 16777216 bytes; run `apm-inspect inspect --format json …` in a shell instead
    package static let mcpOutputTooLarge = Self("mcp.output-too-large")

    /// The command behind a tool could not run at all (no temporary folder could be made, or its result could not be
    /// encoded): nothing was read; the server goes on.
    /// Example: cannot make a temporary folder: No space left on device
    package static let mcpToolFailed = Self("mcp.tool-failed")
}
