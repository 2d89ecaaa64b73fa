import FeatureQuerySupport

/// PKCE's S256 check.
enum PKCE {
    /// Whether `verifier` hashes to `challenge` (S256).
    static func matches(verifier: String, challenge: String) -> Bool {
        Base64URL.encode(SHA256.digest(Array(verifier.utf8))) == challenge
    }
}
