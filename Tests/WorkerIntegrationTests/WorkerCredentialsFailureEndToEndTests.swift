import FeatureQuerySupport
import Foundation
import Testing
@testable import SampleFeatureServer

import QueryWorker
import Synchronization
import WorkerTestSupport

/// The outcomes of credentials that can't be used as they are, through Kafka against the secured sample
/// deployment: an OAuth user whose refresh token the portal revoked or let expire
/// (`relogin_required`), a token minted `ssl: true` for a plain-http server (`insecure_transport`), and a
/// secret file that went away after the worker started (`credential_unavailable`), then came back: the
/// next request works again, without a reload.
@Suite("Worker end to end: credentials that can't be used")
struct WorkerCredentialsFailureEndToEndTests {
    static let revokedRefreshToken = "refresh-revoked"
    static let expiredRefreshToken = "refresh-expired"

    @Test func reloginInsecureTransportAndAMissingSecretFileThatComesBack() async throws {
        let authority = SampleTokenAuthority()
        let now = Int64(Date().timeIntervalSince1970 * 1_000)
        authority.state.withLock {
            $0.refreshTokens[Self.revokedRefreshToken] = IssuedRefreshToken(
                clientID: "sample-public-app", username: "viewer", expiresAt: now + 86_400_000)
        }
        let harness = try await SecuredWorkerHarness(authority: authority) { servers, folder in
            let portal = servers.portal.serverRootURL + "/rest/services/Secured/"
            // The files say nothing is wrong (issued now, two weeks to live): only the portal knows.
            let session = { (token: String) in
                #"{"refreshToken": "\#(token)", "issuedAt": \#(now), "expiresAt": \#(now + 14 * 86_400_000)}"#
            }
            return [
                CredentialJSON.oauthUser(
                    "revoked", scope: [portal + "USA/MapServer"], portal: servers.portalURL, clientID: "sample-public-app",
                    refreshTokenFile: try folder.write("revoked.json", session(Self.revokedRefreshToken))),
                CredentialJSON.oauthUser(
                    "expired", scope: [portal + "LA_County_Parcels/FeatureServer"], portal: servers.portalURL,
                    clientID: "sample-public-app", refreshTokenFile: try folder.write("expired.json", session(Self.expiredRefreshToken))),
                CredentialJSON.token(
                    "standalone", scope: [servers.standalone.serverRootURL], username: "viewer",
                    password: try folder.secret("password", "viewer-password")),
                CredentialJSON.token(
                    "federated", scope: [servers.federated.serverRootURL, servers.portalURL], username: "viewer",
                    password: try folder.secret("federated-password", "viewer-password")),
            ]
        }
        let servers = harness.servers
        // The portal revokes the one refresh token; the other is past its end at the portal.
        authority.revokeAllTokens(includingRefreshTokens: true)
        authority.state.withLock {
            $0.refreshTokens[Self.expiredRefreshToken] = IssuedRefreshToken(
                clientID: "sample-public-app", username: "viewer", expiresAt: now - 60_000)
        }
        // The standalone credential's password file goes away after the worker started.
        let passwordFile = harness.folder.path("password")
        try FileManager.default.removeItem(atPath: passwordFile)

        try await harness.send("revoked", SecuredWorkerHarness.request("revoked", url: servers.portal.securedLayerURL(.cities)))
        try await harness.send("expired", SecuredWorkerHarness.request("expired", url: servers.portal.securedLayerURL(.parcels)))
        try await harness.send("missing", SecuredWorkerHarness.request("missing", url: servers.standalone.securedLayerURL(.states)))
        let first = try await harness.outcome(["revoked", "expired", "missing"])
        for id in ["revoked", "expired"] {
            #expect(first[id]?.status == "failed", "\(id): \(String(describing: first[id]))")
            #expect(first[id]?.layerOrOutcomeErrorCode == "relogin_required", "\(id): \(String(describing: first[id]))")
        }
        #expect(first["missing"]?.status == "failed", "\(String(describing: first["missing"]))")
        #expect(first["missing"]?.layerOrOutcomeErrorCode == "credential_unavailable", "\(String(describing: first["missing"]))")
        #expect(authority.counters.serverGenerateToken == 0, "no token call without the password")

        // The file is back: the next request works, with nothing reloaded. (A failed token call is tried again
        // after a backoff of 1 s.)
        try harness.folder.write("password", "viewer-password")
        try await Task.sleep(for: .milliseconds(1_500))
        try await harness.send("restored", SecuredWorkerHarness.request(
            "restored", url: servers.standalone.securedLayerURL(.states), query: #"{"where":"STATE_NAME LIKE 'N%'"}"#))
        let restored = try await harness.outcome(["restored"])["restored"]
        let truth = try harness.dataset.groundTruthObjectIDs(.states, where: "STATE_NAME LIKE 'N%'")
        #expect(!truth.isEmpty)
        #expect(restored?.status == "succeeded", "\(String(describing: restored))")
        #expect(restored?.firstLayer?.integerObjectIDs?.sorted() == truth)

        // Tokens minted `ssl: true` from now on: the federated server is plain http, so nothing is sent there.
        authority.updateKnobs { $0.ssl = true }
        try await harness.send("insecure", SecuredWorkerHarness.request("insecure", url: servers.federated.securedLayerURL(.cities)))
        let insecure = try await harness.outcome(["insecure"])["insecure"]
        #expect(insecure?.status == "failed", "\(String(describing: insecure))")
        #expect(insecure?.layerOrOutcomeErrorCode == "insecure_transport", "\(String(describing: insecure))")
        let secured = servers.federated.statistics.recentRequests.filter { $0.path.contains("/rest/services/Secured/") }
        #expect(secured.isEmpty, "the token never went over http: \(secured.map(\.path))")
        try await harness.stop()
    }
}
