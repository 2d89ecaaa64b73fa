import FeatureQuerySupport
import Foundation
import Testing

@testable import CurlHTTP

/// The byte-level reading of plain URLs (`fastTarget`) against `URLComponents` (`URLComponentsReference`), which
/// judges every other URL: where the fast path answers, `URLComponents` must give the same target, and
/// `target(of:)` must give the same target or the same error as `URLComponents` alone for every URL.
@Suite("URL targets: the byte path agrees with URLComponents")
struct URLTargetTests {
    // Each part: plain choices first, then odd ones; a URL takes an odd choice for a part one time in five,
    // so plain URLs (the fast path's) and URLs odd in one or two places both turn up often.
    static let schemes = (["http://", "https://", "HTTP://", "hTTps://"], [
        "ftp://", "http:/", "http:", "", "file://", "h ttp://", "http//", "https:///", "httpx://", "ws://",
    ])
    static let userInfos = ([""], ["user@", "u:p@", "@", "a@b@"])
    static let hosts = (["example.com", "EXAMPLE.Com", "127.0.0.1", "a-b.c", "localhost", "h", "a.b.c.d"], [
        "a_b", "", "[::1]", "[::1", "::1", "xn--bcher-kva.example", "XN--bcher-kva.example", "a--b", "exa%6Dple.com",
        "ex~ample", ".", "-", "a..b", "ÿ.com", "h!", "h$", "h'", "h,", "h;", "h=", "0", "999.999.999.999", "host.",
        "-host", "host-", "a b", "a\tb", "ex%41mple", "%", "münchen.de", "*",
    ])
    static let ports = (["", ":80", ":8080", ":65535", ":1", ":443", ":40461"], [
        ":", ":0", ":65536", ":99999", ":080", ":00", ":123456", ":-1", ":a", ":1a", ": 80", "::80",
    ])
    static let paths = (["", "/", "/a/b", "/arcgis/rest/services/LA_County_Parcels/FeatureServer/0/query", "/~user",
                         "/!$&'()*+,;=:@", "//double", "/.", "/..", "/a/./b/../c", "/%20", "/%7e"], [
        "/a b", "/%", "/%2", "/%2G", "/%zz", "/é", "/a|b", "/a\"b", "/{x}", "/[x]", "/a^b", "/a`b", "/a\\b",
        "/a<b>", "/\u{7F}", "/a\u{0}b", "/😀",
    ])
    static let queries = (["", "?", "?a=b&c=d", "?f=json&where=1%3D1&geometry=%7B%22xmin%22%3A-1.5%7D&returnIdsOnly=true",
                           "?q=a+b", "?a?b", "?a/b", "?%41", "?token=abc*def-_.~", "?x=1;y=2", "?:@!$'()"], [
        "?[x]", "?a b", "?é", "?%", "?%4", "?a=%ZZ", "?{}", "?a|b", "?a^b", "?a=\"b\"", "?a=<b>", "?a=`b`",
    ])
    static let fragments = (["", "#", "#f", "#a/b?c", "#%20"], ["#f#g", "#%", "# x", "#é", "#[x]"])

    static func randomURL(_ random: inout SplitMix64) -> String {
        func pick(_ list: [String]) -> String { list[random.below(list.count)] }
        func part(_ choices: ([String], [String])) -> String {
            random.below(5) == 0 ? pick(choices.1) : pick(choices.0)
        }
        var url = part(schemes) + part(userInfos) + part(hosts) + part(ports) + part(paths) + part(queries) + part(fragments)
        if random.below(10) == 0 {
            // A random odd byte somewhere.
            let inserts = ["%", "#", "?", "@", ":", "/", "[", "]", " ", "\\", "^", "|", "~", "é", "\u{0}", "\u{7F}", "-"]
            let offset = random.below(url.unicodeScalars.count + 1)
            var scalars = Array(url.unicodeScalars)
            scalars.insert(contentsOf: pick(inserts).unicodeScalars, at: offset)
            url = String(String.UnicodeScalarView(scalars))
        }
        return url
    }

    /// What a judge said: a target, or an error's code and message.
    enum Verdict: Equatable {
        case target(RequestValidation.Target)
        case error(String, String)

        init(_ body: () throws(HTTPError) -> RequestValidation.Target) {
            do throws(HTTPError) {
                self = .target(try body())
            } catch {
                self = .error(error.code.rawValue, error.message)
            }
        }
    }

    @Test("Over generated URLs, the fast path agrees with URLComponents wherever it answers")
    func fastPathAgrees() {
        var random = SplitMix64(seed: 7)
        var fastAnswers = 0
        var failures = 0
        for _ in 0..<30_000 {
            let url = Self.randomURL(&random)
            let reference = Verdict { () throws(HTTPError) in try URLComponentsReference.target(of: url) }
            let combined = Verdict { () throws(HTTPError) in try RequestValidation.target(of: url) }
            if let fast = RequestValidation.fastTarget(url) {
                fastAnswers += 1
                if reference != .target(fast) {
                    failures += 1
                    if failures <= 10 { Issue.record("\(url.debugDescription): fast \(fast), URLComponents \(reference)") }
                }
            }
            if combined != reference {
                failures += 1
                if failures <= 10 { Issue.record("\(url.debugDescription): target(of:) \(combined), URLComponents \(reference)") }
            }
        }
        // The generator must reach the fast path often, or the comparison says little.
        #expect(fastAnswers > 1_000)
    }

    @Test("The engine's URLs take the fast path", arguments: [
        "http://127.0.0.1:8080/arcgis/rest/services/LA_County_Parcels/FeatureServer/0/query?f=json&where=UseType+%3D+%27Residential%27&returnIdsOnly=true",
        "https://services.arcgis.com/abc/arcgis/rest/services/X/FeatureServer/0?f=json",
        "HTTP://Example.COM/", "http://h",
    ])
    func plainURLsAreFast(_ url: String) throws {
        let fast = try #require(RequestValidation.fastTarget(url))
        #expect(Verdict { () throws(HTTPError) in try URLComponentsReference.target(of: url) } == .target(fast))
    }

    @Test("Unusual URLs go to URLComponents", arguments: [
        "http://user@h/", "http://[::1]:80/", "http://h:080/", "http://h:/", "http://h:0/", "http://h:65536/",
        "http://h/%zz", "http://h/a b", "http://h/#a#b", "http://ex%41mple/", "ftp://h/", "http:///x", "http://h/é",
        "http://xn--bcher-kva.example/", "http://a--b/",
    ])
    func unusualURLsAreSlow(_ url: String) {
        #expect(RequestValidation.fastTarget(url) == nil)
    }

    @Test("Targets keep their meaning: scheme and host lower-cased, default ports spelled out")
    func targetValues() throws {
        let target = try RequestValidation.target(of: "HTTPS://Example.COM/x")
        #expect(target == RequestValidation.Target(scheme: "https", host: "example.com", port: 443))
        #expect(try RequestValidation.target(of: "http://h:8080").origin == "http://h:8080")
        #expect(try RequestValidation.target(of: "http://h?x=1").port == 80)
    }
}

/// `RequestValidation.target(of:)` as it was before the byte reader: `URLComponents` after refusing white
/// space and control characters. The oracle of the equivalence tests (the source keeps its own copy private,
/// as the fallback for URLs the byte reader declines).
enum URLComponentsReference {
    static func target(of url: String) throws(HTTPError) -> RequestValidation.Target {
        let hasASCIIControlOrSpace = url.utf8.contains { $0 <= 32 || $0 == 127 }
        let hasUnicodeSpace = !url.utf8.allSatisfy { $0 < 128 } && url.unicodeScalars.contains { $0.properties.isWhitespace }
        guard !hasASCIIControlOrSpace, !hasUnicodeSpace else {
            throw HTTPError.invalid("URL '\(RequestValidation.printable(url))' contains white space or control characters")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw HTTPError.invalid("URL '\(RequestValidation.printable(url))' is malformed")
        }
        guard scheme == "http" || scheme == "https" else {
            throw HTTPError.invalid("URL scheme '\(scheme)' is not supported (only http and https)")
        }
        guard let host = components.host?.lowercased(), !host.isEmpty else {
            throw HTTPError.invalid("URL '\(RequestValidation.printable(url))' has no host")
        }
        if let port = components.port, !(1...65535).contains(port) {
            throw HTTPError.invalid("URL port \(port) is out of range")
        }
        return RequestValidation.Target(scheme: scheme, host: host, port: components.port ?? (scheme == "https" ? 443 : 80))
    }
}
