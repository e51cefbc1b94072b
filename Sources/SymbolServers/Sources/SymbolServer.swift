import Foundation

/// One `--symbols` source on the network: an HTTP(S) symbol server or an S3 bucket, with its layout.
///
/// The layout is chosen by a prefix: `http(s)://` and `s3://` alone are Sentry's unified layout, `unified+` says
/// so explicitly, `lldb+` selects lldb's folder layout.
package struct SymbolServer: Sendable, Equatable {
    package enum Location: Sendable, Equatable {
        /// `base` has no user, password, query or fragment; `basicAuth` is the URL's `user:password`, if any.
        case http(base: URL, basicAuth: String?)
        /// `prefix` has no leading or trailing slash (empty for the bucket's root).
        case s3(bucket: String, prefix: String)
    }

    package var location: Location
    package var layout: SymbolServerLayout
    /// The source as diagnostics show it: without a password, query or fragment.
    package var display: String

    /// The source `text` parsed; nil, with why, when it is not a server this version reads.
    package static func parse(_ text: String) -> Result<SymbolServer, SymbolServerSourceError> {
        var rest = Substring(text)
        var layout = SymbolServerLayout.unified
        if rest.lowercased().hasPrefix("unified+") {
            rest = rest.dropFirst("unified+".count)
        } else if rest.lowercased().hasPrefix("lldb+") {
            rest = rest.dropFirst("lldb+".count)
            layout = .lldb
        }
        let lower = rest.lowercased()
        if lower.hasPrefix("s3://") {
            let path = rest.dropFirst("s3://".count)
            let bucket = String(path.prefix { $0 != "/" })
            let prefix = path.dropFirst(bucket.count).split(separator: "/").joined(separator: "/")
            guard Self.isBucketName(bucket) else {
                return .failure(SymbolServerSourceError(message: "not an S3 bucket name: \(bucket)"))
            }
            let display = (layout == .lldb ? "lldb+" : "") + "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)")
            return .success(
                SymbolServer(location: .s3(bucket: bucket, prefix: prefix), layout: layout, display: display)
            )
        }
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
            var components = URLComponents(string: String(rest)),
            let host = components.host, !host.isEmpty
        else {
            return .failure(SymbolServerSourceError(message: "not an http(s):// or s3:// address"))
        }
        var basicAuth: String?
        if let user = components.user {
            basicAuth = user + ":" + (components.password ?? "")
        }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        while components.path.hasSuffix("/") { components.path.removeLast() }
        guard let base = components.url else {
            return .failure(SymbolServerSourceError(message: "not an http(s):// address"))
        }
        let display = (layout == .lldb ? "lldb+" : "") + base.absoluteString
        return .success(
            SymbolServer(location: .http(base: base, basicAuth: basicAuth), layout: layout, display: display)
        )
    }

    /// S3's rules for bucket names, loosely: 3 to 63 lower-case letters, digits, dots and dashes.
    static func isBucketName(_ name: String) -> Bool {
        (3...63).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D
            }
    }
}

/// Why a `--symbols` source that looks like a server cannot be used.
package struct SymbolServerSourceError: Error, Sendable, Equatable {
    package var message: String
}
