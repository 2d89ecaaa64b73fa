import FeatureGeometry
import FeatureQuerySupport
import Foundation
import PropertyBased
import Testing

@Suite("JSON reading: numbers, strings, Codable and Foundation values")
struct ParsedJSONTests {
    static let numbers = [
        "0", "-0", "1", "-1", "0.1", "1e22", "1e23", "1E+2", "1e-2", "123.456e-7", "9007199254740993",
        "2.2250738585072014e-308", "4.9e-324", "5e-324", "1.7976931348623157e308", "123456789012345678901234567890",
        "0.000000000000000000000000000001", "-13225312.103694867", "4032831.0048556984", "1e-400", "0e999",
    ]

    @Test(arguments: numbers)
    func numbersReadExactlyAsTheStandardLibraryReadsThem(_ text: String) throws {
        let value = try ParsedJSON(parsing: text)
        guard case .number(let number) = value, let expected = Double(text) else {
            Issue.record("\(text) read as \(value)")
            return
        }
        #expect(number.bitPattern == expected.bitPattern, "\(text)")
    }

    @Test func everyFiniteDoubleSurvivesItsShortestText() async {
        let doubles = Generator<Double, Shrink.None<Double>>(run: { rng in
            var value: Double
            repeat { value = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &rng)) } while !value.isFinite
            return value
        })
        await propertyCheck(count: 2_000, input: doubles) { value in
            let parsed = try ParsedJSON(parsing: "[\(value)]")
            #expect(parsed == .array([.number(value)]), "\(value)")
            let encoded = try EsriJSON.encode(.point(Point(x: value, y: -value)))
            #expect(try EsriJSON.decode(encoded) == .point(Point(x: value, y: -value)))
        }
    }

    @Test func stringsAndEscapes() throws {
        let text = #"{"s":"a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00é","e":"","k\u0041":true,"n":null,"f":false}"#
        let value = try ParsedJSON(parsing: text)
        #expect(value["s"] == .string("a\"b\\c/d\u{8}\u{c}\n\r\t\u{e9}\u{1F600}é"))
        #expect(value["e"] == .string(""))
        #expect(value["kA"] == .bool(true))
        #expect(value["n"] == .null && value["f"] == .bool(false) && value["missing"] == nil)
        #expect(try ParsedJSON(parsing: " \n\t[ ] \r\n") == .array([]))
        #expect(try ParsedJSON(parsing: #"{"a":1,"a":2}"#) == .object(["a": .number(2)]))
    }

    /// Objects nested in objects and arrays each keep their own members (the reader holds the members of every
    /// open object until its `}`), with the last of duplicate keys winning at every level.
    @Test func nestedObjectsKeepTheirOwnMembers() throws {
        let text = #"{"a":{"b":1,"c":{"d":2,"d":3},"b":4},"e":[{"x":1},{},{"y":2,"x":3}],"f":{"g":{"h":{}}},"i":{"z":0},"i":{"b":5}}"#
        let value = try ParsedJSON(parsing: text)
        #expect(value == .object([
            "a": .object(["b": .number(4), "c": .object(["d": .number(3)])]),
            "i": .object(["b": .number(5)]),
            "e": .array([.object(["x": .number(1)]), .object([:]), .object(["y": .number(2), "x": .number(3)])]),
            "f": .object(["g": .object(["h": .object([:])])]),
        ]))
        let wide = "{" + (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let members = try ParsedJSON(parsing: wide)
        #expect((0..<100).allSatisfy { members["k\($0)"] == .number(Double($0)) })
        #expect(throws: (any Error).self, "a truncated object is an error, not a value") {
            try ParsedJSON(parsing: #"{"a":{"b":1,"c":"#)
        }
    }

    @Test func codableRoundTrip() throws {
        let value = try ParsedJSON(parsing: #"{"a":[1,2.5,true,null,"s",{"b":false}],"c":-0.125}"#)
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(ParsedJSON.self, from: data) == value)

        struct Feature: Decodable {
            var attributes: [String: ParsedJSON]
            var geometry: ParsedJSON?
        }
        let feature = try JSONDecoder().decode(
            Feature.self, from: Data(#"{"attributes":{"OBJECTID":7},"geometry":{"x":1.5,"y":2}}"#.utf8))
        #expect(try EsriJSON.decode(feature.geometry ?? .null) == point(1.5, 2))
    }

    @Test func foundationObjectsConvert() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"a":[1,2.5,true,false,null,"s"]}"#.utf8))
        #expect(try ParsedJSON(jsonObject: object)
            == .object(["a": .array([.number(1), .number(2.5), .bool(true), .bool(false), .null, .string("s")])]))
        #expect(try ParsedJSON(jsonObject: ["b": true, "n": 3] as [String: Any]) == .object(["b": .bool(true), "n": .number(3)]))
        expectGeometryError(.invalidGeometry) { _ = try ParsedJSON(jsonObject: Date()) }
        let geometry = try GeoJSON.decode(jsonObject: ["type": "Point", "coordinates": [1, 2]] as [String: Any])
        #expect(geometry == point(1, 2).withWGS84)
    }

    @Test func bytesFromDataAndSlices() throws {
        let data = Data(#"xx{"x":1,"y":2}"#.utf8)
        #expect(try EsriJSON.decode(data.dropFirst(2)) == point(1, 2))
        let bytes = Array(#"{"x":1,"y":2}"#.utf8)
        #expect(try EsriJSON.decode(bytes[...]) == point(1, 2))
        #expect(try EsriJSON.decode(AnyCollection(bytes)) == point(1, 2))
    }
}
