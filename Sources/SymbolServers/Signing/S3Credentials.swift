/// The keys that sign S3 requests, from the standard AWS environment variables; never printed.
package struct S3Credentials: Sendable, Equatable {
    package var accessKeyID: String
    package var secretAccessKey: String
    /// `AWS_SESSION_TOKEN`, sent as `x-amz-security-token` with temporary credentials.
    package var sessionToken: String?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (both, non-empty), with `AWS_SESSION_TOKEN` when set; nil
    /// otherwise, and requests go unsigned (a public bucket).
    package init?(environment: [String: String]) {
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        self.init(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
    }
}
