package import Credentials
import FeatureQuerySupport

/// Proof Key for Code Exchange (RFC 7636) with the S256 method, and the `state` that ties a redirect to the
/// sign-in that started it: what `query-worker login` sends to the authorize and token endpoints.
package struct PKCE: Sendable, Hashable {
    /// The secret kept by `login` and sent only to the token endpoint; 43 characters of base64url (32 random
    /// bytes), the shortest RFC 7636 allows and as much entropy as the hash keeps.
    package let verifier: Secret
    /// `BASE64URL(SHA256(verifier))`, sent with the authorize request.
    package let challenge: String
    /// The authorize request's `state`; the redirect must carry it back unchanged.
    package let state: String

    package static let method = "S256"

    /// A fresh verifier and state from the system's secure random source.
    package init() {
        var generator = SystemRandomNumberGenerator()
        self.init(verifier: Base64URL.encode(Self.randomBytes(32, using: &generator)),
                  state: Base64URL.encode(Self.randomBytes(16, using: &generator)))
    }

    /// Given values (tests check RFC 7636 appendix B's example).
    package init(verifier: String, state: String) {
        self.verifier = Secret(verifier)
        self.challenge = Self.challenge(for: verifier)
        self.state = state
    }

    /// S256: the verifier's ASCII bytes hashed, base64url without padding.
    package static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.digest(Array(verifier.utf8)))
    }

    private static func randomBytes(_ count: Int, using generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
