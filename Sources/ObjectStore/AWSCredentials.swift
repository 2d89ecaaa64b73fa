package import Foundation

/// An access key, its secret and, for temporary credentials, a session token and when they expire.
/// ``description`` never shows the secret or the token, so credentials can be logged by mistake safely.
package struct AWSCredentials: Sendable, Hashable, CustomStringConvertible {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?
    /// When temporary credentials stop working; nil for long-lived keys.
    package var expiration: Date?

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, expiration: Date? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.expiration = expiration
    }

    package var description: String {
        "AWSCredentials(key: \(accessKeyID), secret: <redacted>\(sessionToken == nil ? "" : ", token: <redacted>"))"
    }
}

/// Where credentials come from. The client asks before every request, so a provider that holds temporary
/// credentials (web identity) refreshes them itself and a rotated file is picked up without a restart.
package protocol AWSCredentialsProvider: Sendable {
    /// The credentials to sign the next request with, or a `credentials` error saying what is missing.
    func credentials() async throws(ObjectStoreError) -> AWSCredentials
}

/// Fixed credentials: tests, and callers that read them from their own settings.
package struct StaticCredentialsProvider: AWSCredentialsProvider {
    package let value: AWSCredentials
    package init(_ value: AWSCredentials) { self.value = value }
    package func credentials() async throws(ObjectStoreError) -> AWSCredentials { value }
}
