import FeatureQuerySupport
import Testing
import FeatureService

@testable import ArcGISEngine

/// The byte reading of `{"count":N}` against the JSON tree it short-cuts: same count, same error, for
/// generated bodies near and far from the plain shape.
@Suite("Count bodies: the byte path agrees with the JSON tree")
struct PlainCountTests {
    static let pieces = [
        "{", "}", "\"count\"", ":", "\"Count\"", "\"count \"", "\"error\"", "\"status\"", "\"error\"", " ", "\n", "\t",
        "\r", ",", "0", "7", "42", "00", "01", "-1", "-0", "1.5", "1e3", "1E3", "123456789012345", "1234567890123456",
        "9007199254740993", "99999999999999999999", "null", "true", "\"12\"", "[", "]", "{\"code\":500,\"message\":\"x\"}",
        "\"error\"", "<html>", "\u{FEFF}", "é", "\"x\":1",
    ]

    static func randomBody(_ random: inout SplitMix64) -> [UInt8] {
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        let text: String
        switch random.next() % 4 {
        case 0:
            // The plain shape, with white space and a number drawn from the pieces.
            let ws = ["", " ", "\n", "\t ", "\r\n"]
            text = pick(ws) + "{" + pick(ws) + "\"count\"" + pick(ws) + ":" + pick(ws)
                + pick(["0", "7", "42", "123456789012345", "1234567890123456", "00", "-1", "1.0", "1e2", "007"]) + pick(ws) + "}"
                + pick(ws + ["x", ",", "}"])
        case 1:
            // The plain shape with one piece inserted or removed somewhere.
            var plain = Array("{\"count\":12}".unicodeScalars)
            let offset = Int(random.next() % UInt64(plain.count + 1))
            if random.next() % 2 == 0 {
                plain.insert(contentsOf: pick(pieces).unicodeScalars, at: offset)
            } else if offset < plain.count {
                plain.remove(at: offset)
            }
            text = String(String.UnicodeScalarView(plain))
        default:
            text = (0..<Int(random.next() % 9)).map { _ in pick(pieces) }.joined()
        }
        var bytes = Array(text.utf8)
        if random.next() % 10 == 0, !bytes.isEmpty { bytes.removeLast(Int(random.next() % UInt64(bytes.count))) }
        return bytes
    }

    static func outcome(_ body: () throws(FeatureServiceError) -> Int) -> Result<Int, FeatureServiceError> {
        do throws(FeatureServiceError) { return .success(try body()) } catch { return .failure(error) }
    }

    @Test("count(_:layer:) equals the tree's answer over generated bodies")
    func countMatchesTree() {
        var random = SplitMix64(seed: 31)
        let layer = "http://h/arcgis/rest/services/LA/FeatureServer/0?token=secret"
        var plain = 0
        for _ in 0..<30_000 {
            let body = Self.randomBody(&random)
            let current = Self.outcome { () throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: layer) }
            let tree = Self.outcome { () throws(FeatureServiceError) in
                try ArcGISResponse.documentCount(body, context: ResponseContext(layer: layer))
            }
            if ArcGISResponse.plainCount(body, from: 0) != nil { plain += 1 }
            #expect(current == tree, "\(String(decoding: body, as: UTF8.self).debugDescription)")
        }
        #expect(plain > 1_000)
    }

    @Test("The byte path takes plain counts only", arguments: [
        ("{\"count\":0}", 0), ("{\"count\":42}", 42), ("{\n\"count\" : 123456789012345 }\r\n", 123_456_789_012_345),
    ])
    func plainCounts(_ text: String, _ expected: Int) {
        #expect(ArcGISResponse.plainCount(Array(text.utf8), from: 0) == expected)
    }

    @Test("Everything else goes through the tree", arguments: [
        "{\"count\":01}", "{\"count\":-1}", "{\"count\":1.0}", "{\"count\":1e2}", "{\"count\":1234567890123456}",
        "{\"count\":1,\"x\":2}", "{\"count\":1}x", "{\"Count\":1}", "{\"count\":\"1\"}", "{\"count\":}", "{\"count\":1",
        "{\"error\":{\"code\":500}}", "",
    ])
    func otherBodies(_ text: String) {
        #expect(ArcGISResponse.plainCount(Array(text.utf8), from: 0) == nil)
    }
}
