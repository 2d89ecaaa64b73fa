import CurlHTTP
@testable import QueryWorker
import Testing

@Suite("Host allowlist: entries and URLs")
struct HostPolicyTests {
    static let policy = try? HostPolicy(allowedHosts: [
        "services.arcgis.com", "*.arcgisonline.com", "gis.example.org:6443", "192.0.2.10", "198.51.100.0/24:8080",
        "[2001:db8::5]", "2001:db8:1::/48", "Internal.Corp.",
    ])

    private struct BadAddress: Error {}

    private static func range(_ base: String, _ prefix: Int) throws -> IPAddressRange {
        guard let address = IPAddress(base), let range = IPAddressRange(base: address, prefixLength: prefix) else { throw BadAddress() }
        return range
    }

    @Test("entries parse into names, wildcards, addresses and ranges, with optional ports")
    func entries() throws {
        let policy = try #require(Self.policy)
        let patterns = policy.entries.map(\.pattern)
        #expect(patterns[0] == .host("services.arcgis.com"))
        #expect(patterns[1] == .subdomains(of: "arcgisonline.com"))
        #expect(policy.entries[2].port == 6443)
        let single = try Self.range("192.0.2.10", 32)
        #expect(patterns[3] == .addresses(single))
        let cidr = try Self.range("198.51.100.0", 24)
        #expect(patterns[4] == .addresses(cidr))
        #expect(policy.entries[4].port == 8080)
        #expect(patterns[7] == .host("internal.corp"))
        let mapped = try HostPolicy(allowedHosts: ["::ffff:10.0.0.0/104"]).entries[0].pattern
        let ten = try Self.range("10.0.0.0", 8)
        #expect(mapped == .addresses(ten))
    }

    @Test("a malformed entry is an error that names it", arguments: [
        "", "  ", "https://services.arcgis.com", "user@host.com", "host.com:0", "host.com:65536", "host.com:8o", "*.com", "*",
        "a*.example.com", "example.*.com", "10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "::1/129", "[::1", "[::1]x", "exa mple.com",
        "-bad.example.com", "bad-.example.com", "127.1", "2130706433", "1.2.3.04", "host.com:+80", "10.0.0.0/+8", "gggg::1",
        String(repeating: "a", count: 64) + ".com",
    ])
    func malformedEntries(_ entry: String) {
        #expect {
            _ = try HostPolicy(allowedHosts: ["services.arcgis.com", entry])
        } throws: { error in
            guard let error = error as? HostPolicyError else { return false }
            return error.code == .invalidEntry && error.entry == entry && error.message.contains("'\(entry)'")
        }
    }

    @Test("allowed URLs", arguments: [
        "https://services.arcgis.com/P3ePLMYs2RVChkJx/arcgis/rest/services/x/FeatureServer/0/query?where=1%3D1",
        "http://services.arcgis.com:8080/x", "HTTPS://SERVICES.ARCGIS.COM/x", "https://services.arcgis.com./x",
        "https://tiles.arcgisonline.com/x", "https://a.b.arcgisonline.com", "https://gis.example.org:6443/arcgis",
        "http://192.0.2.10/x", "http://198.51.100.77:8080/x", "http://[2001:db8::5]:8443/x", "https://[2001:db8:1:ffff::1]/x",
        "https://internal.corp/x",
    ])
    func allowed(_ url: String) throws {
        let policy = try #require(Self.policy)
        #expect(throws: Never.self) { try policy.check(url: url) }
    }

    @Test("URLs to hosts not listed are refused with host_not_allowed", arguments: [
        "https://arcgisonline.com/x", "https://evilarcgisonline.com/x", "https://services.arcgis.com.evil.com/x",
        "https://gis.example.org/arcgis", "https://gis.example.org:443/arcgis", "http://192.0.2.11/x",
        "http://198.51.100.77/x", "http://127.0.0.1/x", "http://[::1]/x", "http://127.1/x", "http://2130706433/x",
        "http://0x7f.0.0.1/x", "http://localhost/x", "http://[::ffff:127.0.0.1]/x",
    ])
    func refusedHosts(_ url: String) throws {
        let policy = try #require(Self.policy)
        #expect {
            try policy.check(url: url)
        } throws: { error in
            (error as? HostPolicyError)?.code == .hostNotAllowed
        }
    }

    @Test("unusable URLs are refused with invalid_url", arguments: [
        "ftp://services.arcgis.com/x", "file:///etc/passwd", "gopher://services.arcgis.com", "services.arcgis.com/x",
        "https://user:pw@services.arcgis.com/x", "https://evil.com\\@services.arcgis.com/", "https://services.arcgis.com\\.evil.com/",
        "https://evil.com#@services.arcgis.com", "http://[::1/x", "http://[nothost]/x", "https:///x", "https://:443/x",
        "https://services.arcgis.com:0/x", "https://services.arcgis.com:99999/x", "https://services.arcgis.com:+443/",
        "https://serv%69ces.arcgis.com/x", "https://services.arcgis.com /x", "https://services.arcgis.com/\u{0}",
    ])
    func invalidURLs(_ url: String) throws {
        let policy = try #require(Self.policy)
        #expect {
            try policy.check(url: url)
        } throws: { error in
            let code = (error as? HostPolicyError)?.code
            // `#@` ends the authority at '#': evil.com is simply not allowed.
            return code == .invalidURL || (url.contains("#@") && code == .hostNotAllowed)
        }
    }

    @Test("an empty list denies everything, and says so")
    func emptyDeniesAll() throws {
        let policy = try HostPolicy(allowedHosts: [])
        #expect(policy == HostPolicy(entries: []))
        do {
            try policy.check(url: "https://services.arcgis.com/x")
            Issue.record("allowed by an empty list")
        } catch {
            #expect(error.code == .hostNotAllowed)
            #expect(error.message.contains("allowedHosts setting is empty"))
        }
        #expect(policy.refusal(host: "services.arcgis.com", address: "52.1.2.3", port: 443) != nil)
    }

    @Test("check(url:) reports scheme, host, port and address")
    func target() throws {
        let policy = try #require(Self.policy)
        let target = try policy.check(url: "https://[2001:DB8::5]/x")
        #expect(target.scheme == "https" && target.host == "2001:db8::5" && target.port == 443)
        #expect(target.address == IPAddress("2001:db8::5"))
        #expect(try policy.check(url: "http://services.arcgis.com").port == 80)
    }
}
