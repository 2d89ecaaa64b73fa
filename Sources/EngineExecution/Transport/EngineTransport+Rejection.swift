import FeatureService

/// What the transport does when a service refuses the credentials a request carried: one refresh and one
/// retry of the refused request (a page, never the whole layer again), then the layer's error. A token that
/// ran out while its request waited at the server is replaced again, a few times at most.
extension EngineTransport {
    /// Replacements one request may be given in all: the first for any rejection, the rest only for tokens
    /// rejected as they were running out (a server that holds requests about as long as its tokens live).
    package static let maxReplacements = 3

    /// What to send on the retry after `error` refused `applied`, or the layer's error:
    /// `authentication_required` when nothing that could answer was sent, `credential_rejected` when what was
    /// sent holds no token to replace, when the authenticator has nothing new, or on a rejection after
    /// `replacements` earlier ones unless the token may have expired (``AppliedAuthentication/TokenReference/mayHaveExpired(at:)``)
    /// and fewer than ``maxReplacements`` were given; the authenticator's own failure (`credential_expired` for
    /// an API key) as it throws it.
    func replacement(
        after error: FeatureServiceError, _ rejection: TransportRules.Rejection, applied: AppliedAuthentication,
        replacements: Int, auth: QueryAuthentication, url: String, layer: String
    ) async throws -> AppliedAuthentication {
        let layer = rules.errorLayer(layer)
        let which = (applied.token?.credential ?? auth.credential ?? applied.cacheIdentity).map { "the credential \"\($0)\"" }
            ?? "the credential that covers it"
        switch rejection {
        case .webTier(let evidence):
            if applied.isEmpty {
                throw failure(
                    .authenticationRequired, error, serviceCode: nil, auth: auth, layer: layer,
                    "\(layer) requires authentication (\(evidence)) and no credential covers it: \(Self.addCredential)")
            }
            throw failure(
                .credentialRejected, error, serviceCode: nil, auth: auth, layer: layer,
                "\(layer) refused \(which) (\(evidence)): check the credential and its access to the service")
        case .token(let serviceCode, let evidence, let tokenRequired):
            // A service that asks for a token in particular (ArcGIS) reports its code on the layer's error.
            let reported = tokenRequired ? serviceCode : nil
            guard let token = applied.token else {
                if applied.isEmpty || tokenRequired {
                    throw failure(
                        .authenticationRequired, error, serviceCode: reported, auth: auth, layer: layer,
                        "\(layer) requires \(tokenRequired ? "a token" : "credentials") (\(evidence)) and no credential "
                            + "covers it: \(Self.addCredential)")
                }
                throw failure(
                    .credentialRejected, error, serviceCode: reported, auth: auth, layer: layer,
                    "\(layer) refused \(which) (\(evidence)): check the credential and its access to this service")
            }
            if replacements > 0 {
                guard token.mayHaveExpired(at: .now) else {
                    throw failure(
                        .credentialRejected, error, serviceCode: reported, auth: auth, layer: layer,
                        "\(layer) rejected the credential \"\(token.credential)\" again (\(evidence)) right after it was "
                            + "replaced: check that the credential's account may use this service")
                }
                guard replacements < Self.maxReplacements else {
                    throw failure(
                        .credentialRejected, error, serviceCode: reported, auth: auth, layer: layer,
                        "\(layer) rejected \(replacements + 1) tokens of the credential \"\(token.credential)\" in a row (\(evidence)), "
                            + "each as it was running out: the service holds requests about as long as its tokens live; "
                            + "ask its token service for longer-lived tokens")
                }
            }
            let next: AppliedAuthentication?
            do {
                next = try await auth.rejected(applied, serviceCode: serviceCode, for: url)
            } catch let failure as AuthenticationFailure {
                var mapped = FeatureServiceError(failure, layer: layer)
                mapped.httpStatus = error.httpStatus
                mapped.serviceCode = reported
                throw mapped
            }
            guard let next else {
                throw failure(
                    .credentialRejected, error, serviceCode: reported, auth: auth, layer: layer,
                    "\(layer) rejected the credential \"\(token.credential)\" (\(evidence)) and no new one can be "
                        + "obtained: check the credential")
            }
            return next
        }
    }

    private static let addCredential =
        "add a credential whose scope covers the URL to the worker's credentials file, or name one in the request"

    private func failure(
        _ code: FeatureServiceError.Code, _ error: FeatureServiceError, serviceCode: Int?, auth: QueryAuthentication,
        layer: String, _ text: String
    ) -> FeatureServiceError {
        FeatureServiceError(
            code, text, layer: layer, httpStatus: error.httpStatus, serviceCode: serviceCode,
            details: auth.redactor.redact(error.details))
    }
}
