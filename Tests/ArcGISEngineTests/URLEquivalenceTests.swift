import FeatureQuerySupport
import Testing
import FeatureService

@testable import ArcGISEngine

/// The byte-level URL code against the `Character` code it replaced (``ReferenceURLs``), over generated
/// URLs: ASCII and not, with combining marks, CR LF, percent signs, user info, long ones.
@Suite("URL parsing and normalising match the reference")
struct URLEquivalenceTests {
    static let schemes = [
        "http://", "https://", "HTTP://", "HtTpS://", "ftp://", "http:/", "", "http:", " http://", "http://\u{301}",
        "https:/\u{301}/", "httpS:", "https//",
    ]
    static let hosts = [
        "h", "Example.COM:8443", "user@h", "", "h o", "h\t", "ex\u{E9}.com", "127.0.0.1:40461", "h\r\n", "h\u{B}",
        "h\u{1C}", "h\u{1F}", "h\u{85}", "a\u{301}", "H", "u:p@Host", "h\u{7F}", "h\u{0}",
    ]
    static let segments = [
        "arcgis", "rest", "services", "LA", "", "FeatureServer", "MapServer", "FeatureServer", "MapServer", "0", "12",
        "-0", "+5", "-1", "x", "007", "99999999999999999999", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "query", "a b", "%20", "é", "😀", "\r\n", "featureserver", "+", "-", "1\u{301}",
        "FeatureServer\u{301}", "\u{301}", "5 ", "\u{600}", "Map Server", "0x1", "١",
    ]
    static let separators = ["/", "/", "/", "/", "//", "/\u{301}", "/\r\n"]
    static let suffixes = ["", "", "/", "//", "?token=abc", "#frag", "/?x", "?a#b", "#?", " ", "/ ", "?\u{301}x", "#\u{301}"]

    static func randomLayerURL(_ random: inout SplitMix64) -> String {
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        if random.next() % 8 == 0 {
            // Bytes from a small alphabet, so the odd orders turn up too.
            let alphabet = ["h", "t", "p", "s", ":", "/", "?", "#", "@", " ", "Feature", "Map", "Server", "0", "1", "-",
                            "+", "\r", "\n", "é", "\u{301}", "H", "T", "P"]
            return (0..<Int(random.next() % 40)).map { _ in pick(alphabet) }.joined()
        }
        var url = pick(schemes) + pick(hosts)
        for _ in 0..<Int(random.next() % 7) { url += pick(separators) + pick(segments) }
        if random.next() % 3 == 0 { url += "/" + pick(["FeatureServer", "MapServer"]) }
        if random.next() % 3 == 0 { url += "/" + pick(["0", "3", "-0", "x", "0/query", "1/2"]) }
        if random.next() % 20 == 0 { url += "/" + String(repeating: pick(["a", "é", "b/"]), count: 150) }
        return url + pick(suffixes)
    }

    /// What a parse gave: the parts and the URL, or the error.
    enum Parsed: Equatable {
        case parsed(serviceURL: String, layerId: Int?, origin: String, url: String)
        case failed(FeatureServiceError)
    }

    static func current(_ text: String) -> Parsed {
        do throws(FeatureServiceError) {
            let url = try LayerURL(parsing: text)
            return .parsed(serviceURL: url.serviceURL, layerId: url.layerId, origin: url.origin, url: url.url)
        } catch {
            return .failed(error)
        }
    }

    static func reference(_ text: String) -> Parsed {
        do throws(FeatureServiceError) {
            let url = try ReferenceURLs.layerURL(text)
            return .parsed(
                serviceURL: url.serviceURL, layerId: url.layerId, origin: url.origin,
                url: url.layerId.map { "\(url.serviceURL)/\($0)" } ?? url.serviceURL)
        } catch {
            return .failed(error)
        }
    }

    @Test("LayerURL(parsing:) gives the reference's parts and errors over generated URLs")
    func layerURLMatchesReference() {
        var random = SplitMix64(seed: 11)
        var parsed = 0
        var failures = 0
        for _ in 0..<40_000 {
            let text = Self.randomLayerURL(&random)
            let (current, reference) = (Self.current(text), Self.reference(text))
            if case .parsed = reference { parsed += 1 }
            if current != reference {
                failures += 1
                if failures <= 10 { Issue.record("\(text.debugDescription): \(current), reference \(reference)") }
            }
        }
        #expect(parsed > 500)  // enough valid URLs that the success path is compared too
    }

    @Test("Every ASCII byte in the host and the layer id is judged as the reference judges it")
    func layerURLEveryASCIIByte() {
        for byte in 0..<128 {
            let character = String(UnicodeScalar(UInt8(byte)))
            for text in [
                "http://h\(character)x/a/FeatureServer/0", "http://h/a/FeatureServer/\(character)",
                "http://h/a/FeatureServer/1\(character)", "\(character)http://h/a/MapServer",
                "http://h/a/MapServer\(character)", "htt\(character)://h/a/MapServer",
            ] {
                #expect(Self.current(text) == Self.reference(text), "\(text.debugDescription)")
            }
        }
    }

    @Test("A parsed URL parses back to itself")
    func parsedURLsAreStable() throws {
        var random = SplitMix64(seed: 12)
        for _ in 0..<5_000 {
            guard let url = try? LayerURL(parsing: Self.randomLayerURL(&random)), url.layerId.map({ $0 >= 0 }) ?? true else {
                continue
            }
            #expect(try LayerURL(parsing: url.url) == url)
            #expect(try LayerURL(parsing: url.serviceURL).layer(7) == url.layer(7))
        }
    }

    static func randomNormalizable(_ random: inout SplitMix64) -> String {
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        let parts = [
            pick(["", "", "", " ", "\t", "\r\n", "\u{A0}", "\u{2003}", "\n", "\u{B}", "\u{1C}", "\u{85}"]),
            pick(["http://", "https://", "", "HTTP://", "http:", "://", "x://", "http:/"]),
            pick(["", "", "", "user@", "u:p@", "a@b@", "@", "token=abc@"]),
            pick(["h", "Example.com:80", "", "127.0.0.1:40461", "é"]),
            pick(["", "/", "//", "/a", "/a/", "/arcgis/rest/services/X/FeatureServer/0", "/é/", "/😀", "/a@b", "/:/"]),
            pick(["", "", "?token=x", "#f", "?a@b", "?", "?t=1/", "#/"]),
            pick(["", "", "/", "//", " ", "\n", " \u{301}", "/\u{301}", "\u{301}", "\r\n", "\u{A0}", "e\u{301}"]),
        ]
        return parts.joined()
    }

    @Test("normalizedURL gives the reference's result over generated URLs")
    func normalizedURLMatchesReference() {
        var random = SplitMix64(seed: 13)
        var unchanged = 0
        var failures = 0
        for _ in 0..<40_000 {
            let text = Self.randomNormalizable(&random)
            let (current, reference) = (ArcGISResponse.normalizedURL(text), ReferenceURLs.normalizedURL(text))
            if reference == text { unchanged += 1 }
            if current != reference {
                failures += 1
                if failures <= 10 { Issue.record("\(text.debugDescription): \(current.debugDescription), reference \(reference.debugDescription)") }
            }
        }
        #expect(unchanged > 500)
        for byte in 0..<128 {
            let character = String(UnicodeScalar(UInt8(byte)))
            for text in [character + "http://h/a", "http://h/a" + character, "http://h" + character + "x/a", character] {
                #expect(ArcGISResponse.normalizedURL(text) == ReferenceURLs.normalizedURL(text), "\(text.debugDescription)")
            }
        }
    }

    @Test("The byte check passes exactly the URLs normalising leaves alone, and never a changed one")
    func fastPathIsSafe() {
        var random = SplitMix64(seed: 14)
        for _ in 0..<20_000 {
            let text = Self.randomNormalizable(&random)
            if ArcGISResponse.isNormalASCIIURL(text) {
                #expect(ReferenceURLs.normalizedURL(text) == text, "\(text.debugDescription)")
            }
        }
        #expect(ArcGISResponse.isNormalASCIIURL("http://127.0.0.1:1/arcgis/rest/services/LA/FeatureServer/0"))
        #expect(!ArcGISResponse.isNormalASCIIURL("http://u@h/a"))
        #expect(!ArcGISResponse.isNormalASCIIURL("http://h/a?token=x"))
    }
}
