import Foundation

/// Where S3 requests go and how they are signed, from the standard AWS environment: `AWS_REGION` (else
/// `AWS_DEFAULT_REGION`, else `us-east-1`), `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` for an S3-compatible store,
/// and the credentials (``S3Credentials``).
///
/// Addressing is virtual-host style (`bucket.host`) unless the endpoint is an IP address or `localhost`, the bucket
/// name has a dot (TLS certificates cover one label), or `AWS_S3_FORCE_PATH_STYLE` (or
/// `AWS_S3_ADDRESSING_STYLE=path`) asks for path style.
package struct S3Endpoint: Sendable {
    package var region: String
    package var endpoint: URLComponents?
    package var forcePathStyle: Bool
    package var credentials: S3Credentials?

    package init(environment: [String: String]) {
        region =
            [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }
            .first { !$0.isEmpty } ?? "us-east-1"
        let endpointText = [environment["AWS_ENDPOINT_URL_S3"], environment["AWS_ENDPOINT_URL"]].compactMap { $0 }
            .first { !$0.isEmpty }
        endpoint = endpointText.flatMap { URLComponents(string: $0) }.flatMap { $0.host == nil ? nil : $0 }
        let force = (environment["AWS_S3_FORCE_PATH_STYLE"] ?? "").lowercased()
        forcePathStyle =
            ["1", "true", "yes"].contains(force)
            || (environment["AWS_S3_ADDRESSING_STYLE"] ?? "").lowercased() == "path"
        credentials = S3Credentials(environment: environment)
    }

    /// The URL of `key` in `bucket` and the `host` header that goes with it (the one signed).
    package func request(bucket: String, key: String) -> (url: URL, host: String)? {
        var components = URLComponents()
        var basePath = ""
        var host: String
        if let endpoint, let endpointHost = endpoint.host {
            components.scheme = endpoint.scheme ?? "https"
            host = endpointHost
            components.port = endpoint.port
            basePath = endpoint.path.split(separator: "/").joined(separator: "/")
        } else {
            components.scheme = "https"
            host = "s3.\(region).amazonaws.com"
        }
        let pathStyle = forcePathStyle || bucket.contains(".") || Self.isAddressOrLocal(host)
        let encodedKey = SigV4Signer.uriEncode(key, keepingSlashes: true)
        var path = basePath.isEmpty ? "" : "/" + SigV4Signer.uriEncode(basePath, keepingSlashes: true)
        if pathStyle {
            path += "/\(bucket)/\(encodedKey)"
        } else {
            host = "\(bucket).\(host)"
            path += "/\(encodedKey)"
        }
        components.host = host
        components.percentEncodedPath = path
        guard let url = components.url else { return nil }
        let hostHeader = components.port.map { "\(host):\($0)" } ?? host
        return (url, hostHeader)
    }

    /// An IPv4 or IPv6 address, or `localhost`: no bucket can be a subdomain of it.
    static func isAddressOrLocal(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" || lower.hasSuffix(".localhost") || lower.contains(":") || lower.hasPrefix("[") {
            return true
        }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
