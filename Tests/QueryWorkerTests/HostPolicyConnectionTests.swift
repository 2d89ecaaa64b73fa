import CurlHTTP
import Foundation
import Logging
@testable import QueryWorker
import SampleFeatureServer
import Synchronization
import Testing

@Suite("Host allowlist: the resolved address at connect time")
struct HostPolicyConnectionTests {
    static let special = [
        "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "0.0.0.0", "0.1.2.3", "224.0.0.251", "239.255.255.250", "255.255.255.255", "240.0.0.1",
        "192.0.0.8", "198.18.0.1", "::", "::1", "fe80::1", "fd00::1", "fc00::1", "ff02::1", "fec0::1", "::ffff:127.0.0.1",
        "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "2002:7f00:1::1",
        "2002:a9fe:a9fe::1", "64:ff9b:1::1", "100::1",
    ]

    @Test("a listed name resolving to a special-purpose address is refused", arguments: special)
    func rebinding(_ address: String) throws {
        let policy = try HostPolicy(allowedHosts: ["services.arcgis.com"])
        let refusal = try #require(policy.refusal(host: "services.arcgis.com", address: address, port: 443))
        #expect(refusal.code == .hostNotAllowed)
        #expect(refusal.message.contains("allowed only when listed"), "\(refusal.message)")
        #expect(policy.connectionPolicy.allows(HTTPConnectionAttempt(host: "services.arcgis.com", address: address, port: 443)) == false)
        let reported = Mutex<[HostPolicyError]>([])
        let reporting = policy.connectionPolicy { error in reported.withLock { $0.append(error) } }
        #expect(!reporting.allows(HTTPConnectionAttempt(host: "services.arcgis.com", address: address, port: 443)))
        #expect(reported.withLock { $0 } == [refusal])
    }

    @Test("public addresses of a listed name are allowed", arguments: [
        "52.84.1.10", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.0.2.1", "2606:4700::1111", "2001:4860:4860::8888",
        "::ffff:8.8.8.8", "64:ff9b::808:808",
    ])
    func publicAddresses(_ address: String) throws {
        let policy = try HostPolicy(allowedHosts: ["services.arcgis.com"])
        #expect(policy.refusal(host: "services.arcgis.com", address: address, port: 443) == nil)
    }

    @Test("a special-purpose address is allowed when its address or range is listed too, on the listed port")
    func listedPrivateRanges() throws {
        let policy = try HostPolicy(allowedHosts: ["gis.internal", "10.0.0.0/8", "127.0.0.1:8080", "fd00::/8"])
        #expect(policy.refusal(host: "gis.internal", address: "10.20.30.40", port: 443) == nil)
        #expect(policy.refusal(host: "gis.internal", address: "::ffff:10.20.30.40", port: 443) == nil)
        #expect(policy.refusal(host: "gis.internal", address: "fd00::7", port: 443) == nil)
        #expect(policy.refusal(host: "gis.internal", address: "127.0.0.1", port: 8080) == nil)
        #expect(policy.refusal(host: "gis.internal", address: "127.0.0.1", port: 8081) != nil)
        #expect(policy.refusal(host: "gis.internal", address: "192.168.0.1", port: 443) != nil)
        #expect(policy.refusal(host: "10.1.1.1", address: "10.1.1.1", port: 443) == nil, "an IP-literal URL host")
        #expect(policy.refusal(host: "elsewhere.com", address: "10.1.1.1", port: 443) != nil, "the host must match too")
        #expect(policy.refusal(host: "gis.internal", address: "not-an-ip", port: 443) != nil)
    }

    @Test("through libcurl: a listed name on loopback is refused before connecting, unless loopback is listed")
    func endToEnd() async throws {
        let logger = Logger(label: "host-policy-tests")
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 200, seed: 3), logger: logger)
        let url = server.rootURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "/arcgis/rest/services?f=json"
        do {
            let denying = try HostPolicy(allowedHosts: ["localhost"])
            try denying.check(url: url)
            let client = try HTTPClient(configuration: HTTPClientConfiguration(connectionPolicy: denying.connectionPolicy), logger: logger)
            do {
                _ = try await client.execute(HTTPRequest(url: url))
                Issue.record("the request reached loopback")
            } catch let error as HTTPError {
                #expect(error.code == .connectionRefusedByPolicy)
            }
            await client.shutdown()
            #expect(server.httpStatistics.connectionsAccepted == 0)

            let allowing = try HostPolicy(allowedHosts: ["localhost", "127.0.0.0/8", "::1"])
            let allowed = try HTTPClient(configuration: HTTPClientConfiguration(connectionPolicy: allowing.connectionPolicy), logger: logger)
            let response = try await allowed.execute(HTTPRequest(url: url))
            #expect(response.status == 200)
            await allowed.shutdown()
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }
}
