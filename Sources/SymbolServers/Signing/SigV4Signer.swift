import Crypto
import Foundation

/// AWS Signature Version 4 for one request, on swift-crypto's HMAC-SHA256: Soto cannot be resolved here, and a
/// GET of one object needs only the header form of the signature.
///
/// Checked against AWS's published examples (the signature test suite's `get-vanilla` and the S3 guide's GET
/// object example) in `SigV4SignerTests`.
package struct SigV4Signer: Sendable {
    package var credentials: S3Credentials
    package var region: String
    package var service: String

    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// SHA-256 of the empty body, the payload hash of every GET.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// The `Authorization` header for a request whose other headers (`host`, `x-amz-date`, and any
    /// `x-amz-content-sha256` or `x-amz-security-token`) are `headers`, all of them signed.
    ///
    /// `path` is already URI-encoded (``uriEncode(_:keepingSlashes:)``); `amzDate` is `YYYYMMDD'T'HHMMSS'Z'`.
    package func authorization(
        method: String,
        path: String,
        query: [(String, String)] = [],
        headers: [(String, String)],
        payloadHash: String,
        amzDate: String
    ) -> String {
        let (canonical, signedHeaders) = Self.canonicalRequest(
            method: method,
            path: path,
            query: query,
            headers: headers,
            payloadHash: payloadHash
        )
        let day = String(amzDate.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = Self.stringToSign(amzDate: amzDate, scope: scope, canonicalRequest: canonical)
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: signingKey(day: day)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), "
            + "Signature=\(signature)"
    }

    /// The canonical request and the list of signed header names (lower case, sorted, `;`-separated).
    package static func canonicalRequest(
        method: String,
        path: String,
        query: [(String, String)],
        headers: [(String, String)],
        payloadHash: String
    ) -> (request: String, signedHeaders: String) {
        var pairs: [(name: String, value: String)] = []
        for (name, value) in query {
            pairs.append((uriEncode(name, keepingSlashes: false), uriEncode(value, keepingSlashes: false)))
        }
        pairs.sort { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        let canonicalQuery = pairs.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        var byName: [String: [String]] = [:]
        for (name, value) in headers {
            let trimmed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            byName[name.lowercased(), default: []].append(trimmed)
        }
        let names = byName.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\((byName[$0] ?? []).joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let request = [method, path.isEmpty ? "/" : path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash]
            .joined(separator: "\n")
        return (request, signedHeaders)
    }

    /// `AWS4-HMAC-SHA256`, the time, the scope and the canonical request's hash, a line each.
    package static func stringToSign(amzDate: String, scope: String, canonicalRequest: String) -> String {
        "AWS4-HMAC-SHA256\n\(amzDate)\n\(scope)\n" + hex(SHA256.hash(data: Data(canonicalRequest.utf8)))
    }

    /// The key of one day, region and service, derived from the secret by the chain of HMACs SigV4 prescribes.
    private func signingKey(day: String) -> SymmetricKey {
        func mac(_ key: SymmetricKey, _ text: String) -> SymmetricKey {
            SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
        }
        let secret = SymmetricKey(data: Data(("AWS4" + credentials.secretAccessKey).utf8))
        return mac(mac(mac(mac(secret, day), region), service), "aws4_request")
    }

    /// RFC 3986 encoding as SigV4 wants it: unreserved characters kept, every other byte `%XX` in upper case;
    /// `/` kept in paths, encoded in query values.
    package static func uriEncode(_ text: String, keepingSlashes: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            let isUnreserved =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if isUnreserved || (keepingSlashes && byte == 0x2F) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// `20130524T000000Z`: the time SigV4 signs, in UTC.
    package static func amzDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(value ?? 0).leftPadded(to: 2) }
        return String(parts.year ?? 1970).leftPadded(to: 4) + two(parts.month) + two(parts.day) + "T" + two(parts.hour)
            + two(parts.minute) + two(parts.second) + "Z"
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
