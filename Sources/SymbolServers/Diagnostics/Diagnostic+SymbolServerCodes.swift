import APMInspectCore

// The codes of network symbol sources: symbol servers and S3 buckets given with `--symbols`. Each doc comment says
// what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them into
// docs/diagnostics.md.
extension Diagnostic.Code {
    /// A download from a symbol server failed (no connection, a timeout, a server error, a body cut short, a file
    /// that is not the UUID's): the next source is asked, the run goes on, and the image's frames stay
    /// unsymbolicated when no source has it.
    /// Example: cannot download https://symbols.example.com/1b/4e28ba2fa111d2883f0016d3cca427/debuginfo (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427): the server answered 503
    package static let symbolsDownloadFailed = Self("symbols.download-failed")
    /// A file on a symbol server is larger than a download may be (`APM_INSPECT_SYMBOL_DOWNLOAD_LIMIT`, 2 GiB unless
    /// set): it is abandoned as it arrives and nothing of it is kept.
    /// Example: https://symbols.example.com/1b/4e28ba2fa111d2883f0016d3cca427/debuginfo (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427) is larger than 2147483648 bytes: not downloaded
    package static let symbolsDownloadTooLarge = Self("symbols.download-too-large")
    /// A download was cut short and resumed (a `Range` request for the rest, `If-Range` with the server's validator),
    /// in this run or from the bytes an earlier run kept; the file is whole and was kept.
    /// Example: https://symbols.example.com/1b/4e28ba2fa111d2883f0016d3cca427/debuginfo (UUID 1B4E28BA-2FA1-11D2-883F-0016D3CCA427) was resumed after a cut (2 request(s))
    package static let symbolsDownloadResumed = Self("symbols.download-resumed")
}
