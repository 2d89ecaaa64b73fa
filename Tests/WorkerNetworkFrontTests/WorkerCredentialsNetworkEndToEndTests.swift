import FeatureQuerySupport
import NetworkAuthFixture
import SampleFeatureServer
import Synchronization
import Testing

import QueryWorker
import Foundation
import WorkerTestSupport

/// Network credentials through Kafka: the sample server behind nginx, reached with a
/// Basic `password` credential, over TLS signed by a private CA (`serverTrust`), and over TLS that wants a
/// client certificate (`certificate`, a password-protected PKCS#12); behind apache with Digest; behind
/// pyspnego's NTLM. (Kerberos is process-wide in libcurl, so it is tested through the worker's executable in
/// `NetworkAuthTests`.)
@Suite("Worker end to end: network credentials")
struct WorkerCredentialsNetworkEndToEndTests {
    @Test(.enabled(if: NginxAuthServer.isAvailable || NetworkAuthTools.interopRequired, "nginx and openssl are needed"))
    func basicAuthenticationPrivateCAAndClientCertificateBehindNginx() async throws {
        let front = StartedBox<NginxAuthServer>()
        let harness: SecuredWorkerHarness
        do {
            harness = try await SecuredWorkerHarness { servers, folder in
                // nginx in front of the standalone server's public tree.
                let nginx = try await NginxAuthServer.start(upstream: try NetworkAuthUpstream(origin: servers.standalone.rootURL))
                front.set(nginx)
                return try Self.credentials(nginx, folder)
            }
        } catch {
            await front.server?.stop()
            throw error
        }
        let nginx = try #require(front.server)
        let path = "/arcgis/rest/services/"
        let requests: [(id: String, url: String, layer: SampleLayer, clause: String)] = [
            ("basic", nginx.httpOrigin + path + SampleLayer.cities.path, .cities, "ST = 'CA'"),
            ("tls", nginx.httpsOrigin + path + SampleLayer.states.path, .states, "STATE_NAME LIKE 'N%'"),
            ("mtls", nginx.mtlsOrigin + path + SampleLayer.cities.path, .cities, "ST = 'TX'"),
        ]
        for request in requests {
            try await harness.send(request.id, SecuredWorkerHarness.request(
                request.id, url: request.url, query: #"{"where":"\#(request.clause)"}"#))
        }
        let outcomes = try await harness.outcome(requests.map(\.id))
        for request in requests {
            let truth = try harness.dataset.groundTruthObjectIDs(request.layer, where: request.clause)
            #expect(!truth.isEmpty)
            #expect(outcomes[request.id]?.status == "succeeded", "\(request.id): \(String(describing: outcomes[request.id]))")
            #expect(outcomes[request.id]?.firstLayer?.integerObjectIDs?.sorted() == truth, "\(request.id)")
        }
        // nginx saw alice's password on the Basic port, and answered the proxied queries there.
        let log = nginx.accessLog()
        #expect(log.contains { $0.hasPrefix("200 /arcgis/") && $0.hasSuffix(" \(NginxAuthServer.basicUser)") }, "\(log.suffix(10))")
        await nginx.stop()
        try await harness.stop()
    }

    @Test(.enabled(if: ApacheAuthServer.isAvailable || NetworkAuthTools.interopRequired, "apache2 and openssl are needed"))
    func digestAuthenticationBehindApache() async throws {
        let front = StartedBox<ApacheAuthServer>()
        let harness: SecuredWorkerHarness
        do {
            harness = try await SecuredWorkerHarness { servers, folder in
                let apache = try await ApacheAuthServer.start(upstream: try NetworkAuthUpstream(origin: servers.standalone.rootURL))
                front.set(apache)
                return [
                    CredentialJSON.password(
                        "digest", scope: [apache.origin], scheme: "digest", username: ApacheAuthServer.digestUser,
                        password: try folder.secret("digest", ApacheAuthServer.digestPassword))
                ]
            }
        } catch {
            await front.server?.stop()
            throw error
        }
        let apache = try #require(front.server)
        let layer = apache.origin + "/arcgis/rest/services/" + SampleLayer.counties.path
        try await harness.send("digest", SecuredWorkerHarness.request("digest", url: layer, query: #"{"where":"STATE_NAME = 'Texas'"}"#))
        let outcome = try await harness.outcome(["digest"])["digest"]
        let truth = try harness.dataset.groundTruthObjectIDs(.counties, where: "STATE_NAME = 'Texas'")
        #expect(!truth.isEmpty)
        #expect(outcome?.status == "succeeded", "\(String(describing: outcome)) \(apache.errorLog.suffix(500))")
        #expect(outcome?.firstLayer?.integerObjectIDs?.sorted() == truth)
        await apache.stop()
        try await harness.stop()
    }

    @Test(.enabled(if: NTLMServer.isAvailable, "pyspnego in the interop Python is needed (scripts/setup-deps installs it into .venv)"))
    func ntlmBehindPyspnego() async throws {
        let front = StartedBox<NTLMServer>()
        let harness: SecuredWorkerHarness
        do {
            harness = try await SecuredWorkerHarness { servers, folder in
                let ntlm = try await NTLMServer.start(upstream: try NetworkAuthUpstream(origin: servers.standalone.rootURL))
                front.set(ntlm)
                let services = ntlm.origin + "/arcgis/rest/services/"
                // JSON escapes the backslash of DOMAIN\user.
                let user = NTLMServer.qualifiedUser.replacingOccurrences(of: "\\", with: "\\\\")
                return [
                    CredentialJSON.password(
                        "ntlm", scope: [services + "USA"], scheme: "ntlm", username: user,
                        password: try folder.secret("ntlm", NTLMServer.password)),
                    CredentialJSON.password(
                        "ntlm-wrong", scope: [services + "LA_County_Parcels"], scheme: "ntlm", username: user,
                        password: try folder.secret("ntlm-wrong", "not-" + NTLMServer.password)),
                ]
            }
        } catch {
            await front.server?.stop()
            throw error
        }
        let ntlm = try #require(front.server)
        let services = ntlm.origin + "/arcgis/rest/services/"
        try await harness.send("ntlm", SecuredWorkerHarness.request("ntlm", url: services + SampleLayer.states.path, query: #"{"where":"STATE_NAME LIKE 'M%'"}"#))
        try await harness.send("wrong", SecuredWorkerHarness.request("wrong", url: services + SampleLayer.parcels.path))
        let outcomes = try await harness.outcome(["ntlm", "wrong"])
        let truth = try harness.dataset.groundTruthObjectIDs(.states, where: "STATE_NAME LIKE 'M%'")
        #expect(!truth.isEmpty)
        #expect(outcomes["ntlm"]?.status == "succeeded", "\(String(describing: outcomes["ntlm"])) \(ntlm.log.suffix(1_000))")
        #expect(outcomes["ntlm"]?.firstLayer?.integerObjectIDs?.sorted() == truth)
        // NTLM's refusal is a 401 to a request that carried the credential.
        #expect(outcomes["wrong"]?.status == "failed", "\(String(describing: outcomes["wrong"]))")
        #expect(outcomes["wrong"]?.layerOrOutcomeErrorCode == "credential_rejected", "\(String(describing: outcomes["wrong"]))")
        await ntlm.stop()
        try await harness.stop()
    }

    static func credentials(_ nginx: NginxAuthServer, _ folder: CredentialsFolder) throws -> [String] {
        let certificates = nginx.certificates
        return [
            CredentialJSON.password(
                "basic", scope: [nginx.httpOrigin], scheme: "basic", username: NginxAuthServer.basicUser,
                password: try folder.secret("basic", NginxAuthServer.basicPassword)),
            CredentialJSON.serverTrust("private-ca", scope: [nginx.httpsOrigin, nginx.mtlsOrigin], caFile: certificates.caCertificate),
            CredentialJSON.certificate(
                "client", scope: [nginx.mtlsOrigin], path: certificates.clientPKCS12,
                password: try folder.secret("p12", certificates.pkcs12Password)),
        ]
    }
}

/// The front server a harness's credentials closure started, for the test to use and stop.
final class StartedBox<Server: Sendable>: Sendable {
    private let value = Mutex<Server?>(nil)
    func set(_ server: Server) { value.withLock { $0 = server } }
    var server: Server? { value.withLock { $0 } }
}
