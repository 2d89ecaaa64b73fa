package import CurlHTTP
package import FeatureService

/// What an engine tells the shared ``EngineTransport`` about its protocol: how an answer is checked, how the
/// service says it refused the request's credentials, and how errors name a layer. Everything else (the host
/// slot, credentials, retries, the one refresh after a rejection, logs and metrics) is the same for every
/// protocol, so it lives once in the transport.
package struct TransportRules: Sendable {
    /// How a service refused the credentials a request carried.
    package enum Rejection: Sendable, Hashable {
        /// The service rejected or wants a token (ArcGIS 498/499, an OGC API 401): the transport asks the
        /// authenticator once for a replacement and sends the request again. `serviceCode` is what the
        /// authenticator is told; `evidence` names what the service said, for the error message.
        /// `tokenRequired`: the service asks for a token in particular, so a request that carried none lacks
        /// a credential that covers the URL (ArcGIS); otherwise it refused what was sent (OGC API).
        case token(serviceCode: Int, evidence: String, tokenRequired: Bool)
        /// Web-tier authentication in front of the service refused the request (an ArcGIS 401 without an
        /// error body): tokens do not refresh it, so the layer fails at once.
        case webTier(evidence: String)
    }

    /// Names the protocol in log lines: `retrying an <name> request`, the debug line `<name> request`.
    package var name: String
    /// Throws the layer's error for an answer that is not a success (a status, an error body); returns for
    /// one whose body is to be decoded.
    package var check: @Sendable (_ response: HTTPResponse, _ layer: String) throws(FeatureServiceError) -> Void
    /// The rejection a failure stands for, or nil for any other failure.
    package var rejection: @Sendable (FeatureServiceError) -> Rejection?
    /// The layer as errors name it (without query string or user info, where the protocol normalises URLs).
    package var errorLayer: @Sendable (String) -> String
    /// Removes secrets the protocol puts in URLs from a message (an ArcGIS `token=`); the query's
    /// ``ParameterRedactor`` removes the rest.
    package var redactMessage: @Sendable (String) -> String
    /// Whether a request that carries credentials follows same-origin redirects here, asking the authenticator
    /// again for each new URL (OGC API servers redirect `/collections` to `/collections/`), or returns the
    /// redirect as the answer (ArcGIS REST services do not redirect their queries).
    package var followsRedirectsWithCredentials: Bool

    package init(
        name: String,
        check: @escaping @Sendable (_ response: HTTPResponse, _ layer: String) throws(FeatureServiceError) -> Void,
        rejection: @escaping @Sendable (FeatureServiceError) -> Rejection?,
        errorLayer: @escaping @Sendable (String) -> String = { $0 },
        redactMessage: @escaping @Sendable (String) -> String = { $0 },
        followsRedirectsWithCredentials: Bool
    ) {
        self.name = name
        self.check = check
        self.rejection = rejection
        self.errorLayer = errorLayer
        self.redactMessage = redactMessage
        self.followsRedirectsWithCredentials = followsRedirectsWithCredentials
    }
}
